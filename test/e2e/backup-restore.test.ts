import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cds } from '../helpers/child-server.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { dropPrefix, REDIS_URL, testPrefix } from '../state/store-factories.js';

/**
 * Backup and restore (issue 42): `cds backup` taken while the app serves a load restores (`cds restore`) into a new
 * data dir (SQLite) or a new key prefix (Redis) that serves the same accounts, keys and credits, checked by API calls.
 * A restore refuses a store holding data without --force and reports opt-outs the backup lacks.
 */

const SECRET = 'backup-restore-secret-0123456789abcdef01';

function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = cds(args, env);
    let out = '';
    let err = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

const used = async (app: TestApp, key: string) => {
  const res = await app.request('GET', '/v1/credits', { key });
  expect(res.status).toBe(200);
  return res.body.data.contact.day.used as number;
};

const modes: Array<{ mode: 'sqlite' | 'redis'; env: () => Record<string, string> }> = [
  { mode: 'sqlite', env: () => ({}) },
  { mode: 'redis', env: () => ({ CDS_STATE: 'redis', REDIS_URL, CDS_REDIS_PREFIX: testPrefix() }) },
];

describe.each(modes)('backup and restore ($mode)', ({ mode, env }) => {
  const skip = mode === 'redis' && !REDIS_URL;
  const dirs: string[] = [];
  const prefixes: string[] = [];
  afterAll(async () => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    for (const p of prefixes) await dropPrefix(REDIS_URL, p);
  });

  (skip ? it.skip : it)(
    'a backup taken under load restores into a new store serving the same accounts, keys and credits',
    async () => {
      const envA: Record<string, string> = { CDS_SECRET: SECRET, ...env() };
      if (envA.CDS_REDIS_PREFIX) prefixes.push(envA.CDS_REDIS_PREFIX);
      const a = await startTestApp({ contacts: 300, companies: 50, seed: 4, env: envA });
      dirs.push(a.dataDir);
      const backupFile = join(mkdtempSync(join(tmpdir(), 'cds-backup-')), 'state.backup');
      dirs.push(join(backupFile, '..'));
      let b: TestApp | undefined;
      try {
        const accounts = [];
        for (let i = 0; i < 3; i++) accounts.push(await a.createAccount('pro', { name: `acct-${i}` }));
        const idle = await a.createAccount('pro', { name: 'idle' });
        // The idle account spends first; nothing of it changes during the backup.
        const spent = await a.request('POST', '/v1/contacts/search', {
          key: idle.apiKey,
          body: { filter: { countries: ['us'] }, limit: 7 },
        });
        expect(spent.status).toBe(200);
        const idleUsed = await used(a, idle.apiKey);
        expect(idleUsed).toBeGreaterThan(0);
        const before = await Promise.all(accounts.map((x) => used(a, x.apiKey)));
        // The load: searches of the three accounts until the backup is done.
        let loading = true;
        const load = Promise.all(
          accounts.map(async (x) => {
            while (loading) {
              const r = await a.request('POST', '/v1/contacts/search', {
                key: x.apiKey,
                body: { filter: {}, limit: 3 },
              });
              expect([200, 429]).toContain(r.status);
            }
          }),
        );
        const cliEnv = { ...envA, CDS_LOG_LEVEL: 'error' };
        const made = await runCli(['backup', '--data', a.dataDir, '--out', backupFile], cliEnv);
        loading = false;
        await load;
        expect(made.err).toBe('');
        expect(made.code).toBe(0);
        expect(JSON.parse(made.out)).toMatchObject({ kind: mode });
        const after = await Promise.all(accounts.map((x) => used(a, x.apiKey)));

        // Restore into a new store: another data dir (and, in Redis mode, another key prefix).
        const envB: Record<string, string> = {
          ...envA,
          ...(mode === 'redis' ? { CDS_REDIS_PREFIX: testPrefix() } : {}),
        };
        if (envB.CDS_REDIS_PREFIX && envB.CDS_REDIS_PREFIX !== envA.CDS_REDIS_PREFIX)
          prefixes.push(envB.CDS_REDIS_PREFIX);
        const dirB = mkdtempSync(join(tmpdir(), 'cds-restored-'));
        dirs.push(dirB);
        const restored = await runCli(['restore', '--data', dirB, backupFile], { ...envB, CDS_LOG_LEVEL: 'error' });
        expect(restored.err).toBe('');
        expect(restored.code).toBe(0);
        expect(JSON.parse(restored.out)).toMatchObject({ kind: mode, accounts: 4 });
        b = await startTestApp({ contacts: 300, companies: 50, seed: 4, dataDir: dirB, env: envB });

        // The same keys authenticate; the same accounts; the credits as at the backup.
        expect(await used(b, idle.apiKey)).toBe(idleUsed);
        for (const [i, x] of accounts.entries()) {
          const account = await b.request('GET', '/v1/account', { key: x.apiKey });
          expect(account.status).toBe(200);
          expect(JSON.stringify(account.body.data)).toContain(x.accountId);
          const u = await used(b, x.apiKey);
          expect(u).toBeGreaterThanOrEqual(before[i]!);
          expect(u).toBeLessThanOrEqual(after[i]!);
        }
        // The restored store serves and charges: a search spends from the restored balance.
        await b.request('POST', '/v1/contacts/search', { key: idle.apiKey, body: { filter: {}, limit: 2 } });
        expect(await used(b, idle.apiKey)).toBe(idleUsed + 2);
        await b.close();
        b = undefined;

        // A second restore over the now non-empty store is refused without --force.
        const refused = await runCli(['restore', '--data', dirB, backupFile], { ...envB, CDS_LOG_LEVEL: 'error' });
        expect(refused.code).toBe(2);
        expect(refused.err).toMatch(/refusing to replace/);
        // With --force, opt-outs added after the backup are reported.
        const added = await runCli(['optout', 'add', '--data', dirB, '--email', 'late@example.com'], envB);
        expect(added.code).toBe(0);
        const forced = await runCli(['restore', '--data', dirB, '--force', backupFile], {
          ...envB,
          CDS_LOG_LEVEL: 'error',
        });
        expect(forced.code).toBe(0);
        const report = JSON.parse(forced.out);
        expect(report.optouts_newer_than_backup).toEqual([
          expect.objectContaining({ action: 'add', type: 'email', count: 1 }),
        ]);
        expect(report.optouts_missing_after_restore).toEqual({ email: 1 });
        expect(forced.err).toMatch(/WARNING: the replaced store held opt-out changes the backup lacks/);
      } finally {
        await b?.close();
        await a.close();
      }
    },
    180_000,
  );
});
