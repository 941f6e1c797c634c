import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { generateDumps } from '../../loaders/generate/index.js';
import { seedRelease } from '../../loaders/seed.js';
import { ensureSecret, loadConfig } from '../../src/config.js';
import { openSqliteStore } from '../../src/state/sqlite/index.js';
import { cds, startChildServer } from '../helpers/child-server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const currentId = (dir: string) =>
  (JSON.parse(readFileSync(join(dir, 'releases', 'CURRENT'), 'utf8')) as { id: string }).id;

let dir: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cds-kill-'));
  await seedRelease({ dataDir: dir, contacts: 3000, companies: 300, seed: 9, asOf: new Date('2026-11-01T00:00:00Z') });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function openStore() {
  return openSqliteStore({ file: join(dir, 'state.sqlite'), keyPepper: ensureSecret(loadConfig(['--data', dir])) });
}

describe('SIGKILL', () => {
  it('during a load of spending requests: after a restart no credit is lost or doubled and the state file is intact', async () => {
    const store = openStore();
    const now = new Date();
    const accounts: { id: string; key: string; delivered: number; inFlightMax: number }[] = [];
    for (let i = 0; i < 4; i++) {
      const a = await store.createAccount({ name: 'k', plan: 'starter', billingDay: null, now });
      accounts.push({
        id: a.id,
        key: (await store.createKey(a.id, { name: 'k', now })).secret,
        delivered: 0,
        inFlightMax: 0,
      });
    }
    await store.close();
    // A short hold lease, so that the restarted process's sweep releases the dead one's holds within the test.
    const lease = { CDS_HOLD_LEASE_MS: '2000' };
    const server = await startChildServer(dir, lease);
    let stop = false;
    const loops = accounts.flatMap((a) =>
      [0, 1].map(async (lane) => {
        while (!stop) {
          const body =
            lane === 0 ? { filter: { has_work_email: true }, limit: 40, columns: ['name'] } : { filter: {}, limit: 40 };
          try {
            const res = await fetch(`${server.url}/v1/contacts/search`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${a.key}`, 'Content-Type': 'application/json' },
              body: JSON.stringify(body),
            });
            const json = (await res.json()) as { quota?: { contact_credits_used: number } };
            if (res.status === 200) a.delivered += json.quota!.contact_credits_used;
          } catch {
            return; // the server is gone
          }
        }
      }),
    );
    await sleep(1500);
    await server.kill('SIGKILL');
    stop = true;
    await Promise.all(loops);

    const restarted = await startChildServer(dir, lease);
    try {
      const health = (await (await fetch(`${restarted.url}/v1/health`)).json()) as { data: { status: string } };
      expect(health.data.status).toBe('ok');
      const check = openStore();
      try {
        // Holds of requests in flight when the process died are released once their lease passed (sweep of the
        // restarted process: at start, then every lease period).
        const deadline = Date.now() + 15_000;
        const held = async () => {
          let n = 0;
          for (const a of accounts) {
            const c = (await check.snapshot(a.id, new Date())).contact;
            if (c.kind === 'windows') n += c.day.held;
          }
          return n;
        };
        while ((await held()) > 0 && Date.now() < deadline) await sleep(200);
        for (const a of accounts) {
          const snap = await check.snapshot(a.id, new Date());
          if (snap.contact.kind !== 'windows') throw new Error('starter has windows');
          expect(snap.contact.day.held).toBe(0);
          // Charged = delivered, plus at most the two requests per key that were in flight when the process died
          // (their rows may have been charged while their answers were lost) — never less, never doubled.
          expect(a.delivered).toBeGreaterThan(0);
          expect(snap.contact.day.used).toBeGreaterThanOrEqual(a.delivered);
          expect(snap.contact.day.used).toBeLessThanOrEqual(Math.min(1000, a.delivered + 2 * 40));
        }
      } finally {
        await check.close();
      }
      const db = new Database(join(dir, 'state.sqlite'), { readonly: true });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
    } finally {
      await restarted.kill('SIGTERM');
    }
  }, 120_000);

  it('during a release swap: the previous release keeps serving; a later complete load is picked up', async () => {
    const before = currentId(dir);
    const server = await startChildServer(dir);
    try {
      const dumps = join(dir, 'big-dumps');
      await generateDumps({
        contacts: 120_000,
        companies: 12_000,
        seed: 77,
        outDir: dumps,
        asOf: new Date('2026-11-01T00:00:00Z'),
      });
      const loader = cds([
        'load',
        '--data',
        dir,
        '--people',
        join(dumps, 'people.jsonl'),
        '--companies',
        join(dumps, 'companies.jsonl'),
      ]);
      let progress = '';
      await new Promise<void>((resolve, reject) => {
        loader.stderr!.on('data', (b: Buffer) => {
          progress += b.toString();
          if (/people [3-9]0%/.test(progress)) resolve();
        });
        loader.once('exit', () =>
          reject(new Error(`loader finished before it could be killed: ${progress.slice(-300)}`)),
        );
      });
      loader.kill('SIGKILL');
      await new Promise((r) => loader.once('exit', r));
      expect(currentId(dir)).toBe(before);
      const h = (await (await fetch(`${server.url}/v1/health`)).json()) as {
        data: { engine: { release: string; contacts: number } };
      };
      expect(h.data.engine.release).toBe(before);
      expect(h.data.engine.contacts).toBe(3000);

      // A restart after the killed load still serves the previous release, never a half-loaded one.
      await server.kill('SIGKILL');
      const again = await startChildServer(dir);
      try {
        const h2 = (await (await fetch(`${again.url}/v1/health`)).json()) as { data: { engine: { release: string } } };
        expect(h2.data.engine.release).toBe(before);
        // A complete load afterwards swaps in while serving.
        const ok = cds(['seed', '--data', dir, '--contacts', '1500', '--companies', '150', '--seed', '8']);
        const code = await new Promise<number | null>((r) => ok.once('exit', r));
        expect(code).toBe(0);
        const after = currentId(dir);
        expect(after).not.toBe(before);
        let served = '';
        for (let i = 0; i < 40 && served !== after; i++) {
          await sleep(250);
          served = ((await (await fetch(`${again.url}/v1/health`)).json()) as { data: { engine: { release: string } } })
            .data.engine.release;
        }
        expect(served).toBe(after);
      } finally {
        await again.kill('SIGTERM');
      }
    } finally {
      await server.kill('SIGTERM');
    }
  }, 180_000);
});
