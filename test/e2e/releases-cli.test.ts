import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedRelease } from '../../loaders/seed.js';
import { currentRelease, releaseFile } from '../../src/engine/duckdb/release-store.js';
import { cds, runCds } from '../helpers/child-server.js';
import { startTestApp } from '../helpers/test-app.js';

/**
 * `cds releases` for the data team: list the releases on disk, put an earlier one back (a running server serves
 * it within a second), prune old ones; JSON lines and exit codes a scheduler can act on (0, 1, 2).
 */

let dataDir: string;
const ids: string[] = [];
const sizes = [200, 300, 400];
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cds-releases-'));
  for (const [i, contacts] of sizes.entries()) {
    await seedRelease({ dataDir, contacts, companies: 40, seed: 10 + i, asOf: new Date('2026-11-01T00:00:00Z') });
    ids.push(currentRelease(dataDir)!.id);
  }
}, 120_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** `cds releases …` on the test's data dir, its JSON lines parsed. */
async function run(args: string[]): Promise<{ code: number | null; lines: any[]; err: string }> {
  const { code, out, err } = await runCds(['releases', ...args, '--data', dataDir]);
  return {
    code,
    err,
    lines: out.trim()
      ? out
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
      : [],
  };
}

it('lists every release, oldest first, with its rows, size and which one serves', async () => {
  const { code, lines } = await run(['list']);
  expect(code).toBe(0);
  expect(lines.map((l) => l.id)).toEqual(ids);
  expect(lines.map((l) => l.contacts)).toEqual(sizes);
  expect(lines.map((l) => l.serving)).toEqual([false, false, true]);
  for (const l of lines) {
    expect(l).toMatchObject({ kind: 'full', parent: null, point_store: true, companies: 40 });
    expect(l.bytes).toBeGreaterThan(0);
    expect(typeof l.created_at).toBe('string');
  }
});

it('rolls back to the previous release; a running server answers from it within a second; then to one named', async () => {
  const app = await startTestApp({ dataDir, noSeed: true });
  try {
    const key = (await app.createAccount('pro')).apiKey;
    const count = async () =>
      (await app.request('POST', '/v1/contacts/count', { key, body: { filter: {} } })).body.data.count as number;
    expect(await count()).toBe(400);
    const back = await run(['rollback']);
    expect(back.code).toBe(0);
    expect(back.lines).toEqual([{ serving: ids[1], contacts: 300, companies: 40 }]);
    const t0 = Date.now();
    while ((await count()) !== 300 && Date.now() - t0 < 3000) await new Promise((r) => setTimeout(r, 50));
    expect(await count()).toBe(300);
    expect(Date.now() - t0).toBeLessThan(1500);
    const named = await run(['rollback', ids[2]!]);
    expect(named.lines[0].serving).toBe(ids[2]);
  } finally {
    await app.close();
  }
});

it('builds the index of a release that has none; a running server answers from it within a second', async () => {
  const app = await startTestApp({ dataDir, noSeed: true });
  try {
    const serving = currentRelease(dataDir)!.id;
    const file = releaseFile(dataDir, serving).replace(/\.duckdb$/, '.index');
    // A release loaded before the index existed: the server serves it from its columns.
    rmSync(file);
    await app.close();
    const scanning = await startTestApp({ dataDir, noSeed: true });
    try {
      const key = (await scanning.createAccount('pro')).apiKey;
      const health = async () => (await scanning.request('GET', '/v1/health')).body.data.engine;
      const count = async () =>
        (await scanning.request('POST', '/v1/contacts/count', { key, body: { filter: { has_phone: true } } })).body.data
          .count as number;
      expect(await health()).toMatchObject({ index: false });
      const before = await count();
      const built = await run(['index']);
      expect(built.code).toBe(0);
      expect(built.lines[0]).toMatchObject({ release: serving });
      expect(built.lines[0].bytes).toBeGreaterThan(0);
      expect(existsSync(file)).toBe(true);
      const t0 = Date.now();
      while ((await health()).index !== true && Date.now() - t0 < 3000) await new Promise((r) => setTimeout(r, 50));
      expect(await health()).toMatchObject({ index: true });
      expect(Date.now() - t0).toBeLessThan(1500);
      expect(await count()).toBe(before);
      expect((await run(['list'])).lines.find((l) => l.serving)).toMatchObject({ id: serving, index: true });
    } finally {
      await scanning.close();
    }
  } finally {
    await app.close().catch(() => undefined);
  }
});

it('refuses bad input with exit 2 and a message', async () => {
  expect((await run(['index', 'r20990101T000000-none'])).code).toBe(2);
  expect((await run(['rollback', 'r20990101T000000-none'])).code).toBe(2);
  expect((await run(['prune', '--keep', '0'])).code).toBe(2);
  expect((await run(['frobnicate'])).code).toBe(2);
});

it('prunes all but the newest N, never the serving one', async () => {
  const pruned = await run(['prune', '--keep', '2']);
  expect(pruned.code).toBe(0);
  expect(pruned.lines).toEqual([{ removed: [ids[0]] }]);
  expect(existsSync(releaseFile(dataDir, ids[0]!))).toBe(false);
  expect((await run(['list'])).lines.map((l) => l.id)).toEqual(ids.slice(1));
});

it('rolls back while a load runs; the load then publishes its own release', async () => {
  const dumps = await seedRelease({
    dataDir: join(dataDir, '..', `${dataDir.split('/').pop()}-dumps`),
    contacts: 20_000,
    companies: 1_000,
    seed: 77,
    asOf: new Date('2026-11-01T00:00:00Z'),
  });
  const app = await startTestApp({ dataDir, noSeed: true });
  try {
    const key = (await app.createAccount('pro')).apiKey;
    const count = async () =>
      (await app.request('POST', '/v1/contacts/count', { key, body: { filter: {} } })).body.data.count as number;
    expect(await count()).toBe(400);
    const loading = cds([
      'load',
      '--data',
      dataDir,
      '--people',
      dumps.generate.peopleFile,
      '--companies',
      dumps.generate.companiesFile,
    ]);
    const loaded = new Promise<number | null>((resolve) => loading.on('exit', resolve));
    await new Promise((r) => setTimeout(r, 300));
    const back = await run(['rollback', ids[1]!]);
    expect(back.code).toBe(0);
    const t0 = Date.now();
    while ((await count()) !== 300 && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 50));
    // The rolled-back release serves while the load still runs. How soon is checked by the quiet rollback above (within
    // a second); here the load keeps both cores busy, and seeing and opening the release took 0.9 to 2.5 s in runs
    // on this 2-core machine, the slowest with the test suite beside it.
    expect(await count()).toBe(300);
    expect(loading.exitCode).toBeNull(); // the load was still running during the rollback
    expect(await loaded).toBe(0);
    const t1 = Date.now();
    while ((await count()) !== 20_000 && Date.now() - t1 < 3000) await new Promise((r) => setTimeout(r, 50));
    expect(await count()).toBe(20_000);
  } finally {
    await app.close();
    rmSync(join(dataDir, '..', `${dataDir.split('/').pop()}-dumps`), { recursive: true, force: true });
  }
}, 120_000);
