import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { seedRelease } from '../../loaders/seed.js';
import { exportsDir } from '../../src/jobs/export/links.js';
import { openSqliteStore } from '../../src/state/sqlite/index.js';
import { parseCsv } from '../helpers/csv.js';
import { repoRoot } from '../helpers/paths.js';

/**
 * A server process is SIGKILLed in the middle of an export. Restarted on the same data dir, it sees the
 * job's runner is gone, resumes the export from the start and completes it; the account is charged exactly
 * the rows delivered, once, and the credits held for the export are settled (nothing stays held).
 * The export is slowed with the test-only CDS_EXPORT_BATCH_DELAY_MS so the kill lands mid-file.
 */
const SECRET = 'e2e-export-kill-secret-0123456789';
const CONTACTS = 2000;
const main = pathToFileURL(resolve(repoRoot(), process.env.CDS_DIST ?? 'dist', 'src/cli/main.js')).href;

interface Server {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

function serve(dataDir: string, env: Record<string, string>): Promise<Server> {
  const code = `const { main } = await import(${JSON.stringify(main)}); process.exit(await main(process.argv.slice(1)));`;
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', code, 'serve', '--data', dataDir, '--port', '0'],
    {
      env: {
        ...process.env,
        UV_THREADPOOL_SIZE: '16',
        CDS_SECRET: SECRET,
        CDS_LOG_LEVEL: 'silent',
        CDS_DUCKDB_THREADS: '1',
        CDS_DUCKDB_POOL: '2',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${err}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveUrl({ child, url: m[1]!, exited });
      }
    });
    void exited.then((c) => reject(new Error(`server exited (${c}) before listening: ${err}`)));
  });
}

async function api(
  url: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: await res.json() };
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 45_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let dataDir: string;
const servers: Server[] = [];
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cds-e2e-kill-'));
  await seedRelease({ dataDir, contacts: CONTACTS, companies: 200, seed: 5, asOf: new Date('2026-11-01T00:00:00Z') });
});
afterAll(async () => {
  for (const s of servers) {
    if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    await s.exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

it('an export interrupted by SIGKILL resumes after restart and charges exactly the rows delivered', async () => {
  const store = openSqliteStore({ file: join(dataDir, 'state.sqlite'), keyPepper: SECRET, dataDir });
  const account = await store.createAccount({ name: 'e2e', plan: 'pro', billingDay: null, now: new Date() });
  const key = (await store.createKey(account.id, { now: new Date() })).secret;
  const day = async () => {
    const c = (await store.snapshot(account.id, new Date())).contact;
    if (c.kind !== 'windows') throw new Error('pro has windows');
    return c.day;
  };

  try {
    const first = await serve(dataDir, { CDS_EXPORT_BATCH_ROWS: '100', CDS_EXPORT_BATCH_DELAY_MS: '150' });
    servers.push(first);
    const started = await api(first.url, key, 'POST', '/v1/exports', {
      filter: {},
      columns: ['name', 'company_domain'],
    });
    expect(started.status).toBe(202);
    const id: string = started.body.data.export_id;
    expect(started.body.data.rows_to_export).toBe(CONTACTS);

    // Mid-file: running with some batches on disk, far from done.
    const midway = await until('the export to be half-way', async () => {
      const r = await api(first.url, key, 'GET', `/v1/exports/${id}`);
      return r.body.data.status === 'running' && r.body.data.rows_exported >= 300 ? r.body.data : undefined;
    });
    expect(midway.rows_exported).toBeLessThan(CONTACTS);
    first.child.kill('SIGKILL');
    await first.exited;

    // The dead process left the job running with its hold; nothing is charged, no file is served.
    expect(await store.getJob(id)).toMatchObject({ status: 'running', attempts: 1 });
    expect(await day()).toMatchObject({ used: 0, held: CONTACTS });
    expect(existsSync(join(exportsDir(join(dataDir, 'files')), `${id}.csv`))).toBe(false);

    const second = await serve(dataDir, { CDS_EXPORT_BATCH_ROWS: '500' });
    servers.push(second);
    const done = await until('the export to end', async () => {
      const r = await api(second.url, key, 'GET', `/v1/exports/${id}`);
      return r.body.data.status === 'completed' || r.body.data.status === 'failed' ? r.body.data : undefined;
    });
    expect(done).toMatchObject({ status: 'completed', rows_exported: CONTACTS, error: null });
    expect(await store.getJob(id)).toMatchObject({ status: 'completed', attempts: 2 });

    // Charged once, exactly the rows in the file; nothing left held.
    const res = await fetch(done.url);
    expect(res.status).toBe(200);
    const lines = parseCsv(await res.text());
    expect(lines[0]).toEqual(['id', 'name', 'company_domain']);
    expect(lines.length - 1).toBe(CONTACTS);
    expect(new Set(lines.slice(1).map((l) => l[0])).size).toBe(CONTACTS);
    expect(await day()).toMatchObject({ used: CONTACTS, held: 0 });
    const credits = await api(second.url, key, 'GET', '/v1/credits');
    expect(credits.body.data.contact.day).toMatchObject({ used: CONTACTS, held: 0 });
    // the interrupted run's temp file was cleaned up
    expect(readdirSync(exportsDir(join(dataDir, 'files')))).toEqual([`${id}.csv`]);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  } finally {
    await store.close();
  }
});
