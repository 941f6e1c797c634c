import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, listValue } from '@duckdb/node-api';
import { AppError } from '../../src/domain/errors/index.js';
import { indexFile } from '../../src/engine/duckdb/bitmap-index/format.js';
import { type DuckDBEngine, openDuckDBEngine } from '../../src/engine/duckdb/duckdb-engine.js';
import { pointStoreFile } from '../../src/engine/duckdb/point-store/schema.js';
import {
  currentPath,
  listReleases,
  newReleaseId,
  nextReleaseId,
  pruneReleases,
  publishCurrent,
  readCurrent,
  releaseFile,
  releasesDir,
} from '../../src/engine/duckdb/release-store.js';
import { releaseDdl } from '../../src/engine/duckdb/schema.js';

/** Writes a tiny release file by hand (independent of the loader) and publishes it. */
async function makeRelease(dataDir: string, id: string, skills: string[][], publish = true): Promise<void> {
  mkdirSync(releasesDir(dataDir), { recursive: true });
  const inst = await DuckDBInstance.create(releaseFile(dataDir, id));
  const c = await inst.connect();
  for (const sql of releaseDdl()) await c.run(sql);
  for (let i = 0; i < skills.length; i++) {
    await c.run(
      `INSERT INTO contacts (id, name, seniority, last_updated, has_phone, "function", has_work_email, signals, sort_key, skills, company_employee_count)
       VALUES ($1, $2, 'manager', '2026-01', false, 'engineering', false, [], $3, $4, $5)`,
      [`per_${i}`, `Person ${i}`, i + 1, skills[i]!.length ? listValue(skills[i]!) : null, 1000 * (i + 1)],
    );
  }
  await c.run(`INSERT INTO meta VALUES ('release_id', $1)`, [id]);
  c.closeSync();
  inst.closeSync();
  if (publish) {
    await publishCurrent(dataDir, {
      id,
      file: `${id}.duckdb`,
      createdAt: new Date().toISOString(),
      contacts: skills.length,
      companies: 0,
      source: {},
    });
  }
}

/** A query that reads the serving release and then keeps a worker busy for a while. */
const SLOW =
  `SELECT (SELECT value FROM meta WHERE key = 'release_id') AS release, count(*) AS n FROM range(300000000) t(i) ` +
  `WHERE hash(i) % 7 = 0`;

async function expectCode(p: Promise<unknown>, code: string): Promise<void> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  expect((e as AppError).code).toBe(code);
}

describe('DuckDB engine', () => {
  let dataDir: string;
  let engine: DuckDBEngine | null = null;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'cds-engine-'));
  });
  afterEach(async () => {
    await engine?.close();
    engine = null;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves the release CURRENT names, with BIGINT as numbers and lists as arrays', async () => {
    await makeRelease(dataDir, 'r20260101T000000-aaaa', [['python', 'sql'], []]);
    engine = await openDuckDBEngine({ dataDir, poolSize: 2, threads: 1 });
    expect(engine.release()).toMatchObject({ id: 'r20260101T000000-aaaa', contacts: 2 });
    const rows = await engine.run(
      'SELECT id, skills, company_employee_count, count(*) OVER () AS n FROM contacts ORDER BY sort_key',
      [],
    );
    expect(rows).toEqual([
      { id: 'per_0', skills: ['python', 'sql'], company_employee_count: 1000, n: 2 },
      { id: 'per_1', skills: null, company_employee_count: 2000, n: 2 },
    ]);
    expect(await engine.health()).toMatchObject({ ok: true, release: { id: 'r20260101T000000-aaaa' } });
  });

  it('lists distinct values of a list column with counts, q (case-insensitive, parameterized) and limit', async () => {
    await makeRelease(dataDir, 'r20260101T000000-aaaa', [
      ['Python', 'sql'],
      ['python', 'go'],
      ['sql'],
      ['sql', 'pyspark'],
      [],
    ]);
    engine = await openDuckDBEngine({ dataDir, poolSize: 2, threads: 1 });
    expect(await engine.distinctValues('contact', 'skills', null, 10)).toEqual([
      { value: 'sql', count: 3 },
      { value: 'Python', count: 1 },
      { value: 'go', count: 1 },
      { value: 'pyspark', count: 1 },
      { value: 'python', count: 1 },
    ]);
    expect(await engine.distinctValues('contact', 'skills', 'PY', 2)).toEqual([
      { value: 'Python', count: 1 },
      { value: 'pyspark', count: 1 },
    ]);
    expect(await engine.distinctValues('contact', 'skills', "x' OR 1=1 --", 5)).toEqual([]);
    expect(await engine.distinctValues('contact', 'seniority', null, 5)).toEqual([{ value: 'manager', count: 5 }]);
    await expectCode(engine.distinctValues('contact', 'skills; DROP TABLE contacts', null, 5), 'column.not_found');
    await expectCode(engine.distinctValues('contact', 'experience', null, 5), 'column.not_found');
  });

  it('swaps releases: the in-flight query finishes on the old one, new queries see the new one', async () => {
    await makeRelease(dataDir, 'r20260101T000000-aaaa', [['a']]);
    engine = await openDuckDBEngine({ dataDir, poolSize: 2, threads: 1, pollMs: 50 });
    let oldDone = false;
    const inFlight = engine.run(SLOW, [], { budgetMs: 60_000 }).finally(() => (oldDone = true));
    await new Promise((r) => setTimeout(r, 100));
    await makeRelease(dataDir, 'r20260102T000000-bbbb', [['b'], ['c']]);
    await engine.refresh();
    expect(engine.release()?.id).toBe('r20260102T000000-bbbb');
    const fresh = await engine.run(`SELECT value AS release FROM meta WHERE key = 'release_id'`);
    expect(fresh).toEqual([{ release: 'r20260102T000000-bbbb' }]);
    // The slow query was still running on the old release through the swap, and then finished there.
    expect(oldDone).toBe(false);
    const old = await inFlight;
    expect(old[0]).toMatchObject({ release: 'r20260101T000000-aaaa' });
  });

  it('picks up a new release by polling CURRENT', async () => {
    await makeRelease(dataDir, 'r20260101T000000-aaaa', [['a']]);
    engine = await openDuckDBEngine({ dataDir, poolSize: 1, threads: 1, pollMs: 50 });
    await makeRelease(dataDir, 'r20260102T000000-bbbb', [['b'], ['c']]);
    const deadline = Date.now() + 5000;
    while (engine.release()?.id !== 'r20260102T000000-bbbb' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(engine.release()?.id).toBe('r20260102T000000-bbbb');
    expect(await engine.run('SELECT count(*) AS n FROM contacts')).toEqual([{ n: 2 }]);
  });

  it('interrupts a query past its budget with query.timeout, and the connection stays usable', async () => {
    await makeRelease(dataDir, 'r20260101T000000-aaaa', [['a']]);
    engine = await openDuckDBEngine({ dataDir, poolSize: 1, threads: 1 });
    const t0 = Date.now();
    await expectCode(engine.run(SLOW, [], { budgetMs: 150 }), 'query.timeout');
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(await engine.run('SELECT 41 + 1 AS x')).toEqual([{ x: 42 }]);
  });

  it('times out a query waiting for a busy pool', async () => {
    await makeRelease(dataDir, 'r20260101T000000-aaaa', [['a']]);
    engine = await openDuckDBEngine({ dataDir, poolSize: 1, threads: 1 });
    const busy = engine.run(SLOW, [], { budgetMs: 2000 }).catch((e: unknown) => e);
    await expectCode(engine.run('SELECT 1 AS x', [], { budgetMs: 100 }), 'query.timeout');
    await busy;
  });

  it('pins one release across queries with withRelease', async () => {
    await makeRelease(dataDir, 'r20260101T000000-aaaa', [['a']]);
    engine = await openDuckDBEngine({ dataDir, poolSize: 2, threads: 1 });
    const seen = await engine.withRelease(async (s) => {
      const first = await s.run(`SELECT value FROM meta WHERE key = 'release_id'`);
      await makeRelease(dataDir, 'r20260102T000000-bbbb', [['b']]);
      await engine!.refresh();
      const second = await s.run(`SELECT value FROM meta WHERE key = 'release_id'`);
      return [first[0]!.value, second[0]!.value, s.info.id];
    });
    expect(seen).toEqual(['r20260101T000000-aaaa', 'r20260101T000000-aaaa', 'r20260101T000000-aaaa']);
    expect(engine.release()?.id).toBe('r20260102T000000-bbbb');
  });

  it('reports data.unavailable and health false when the release file is missing, without crashing', async () => {
    await publishCurrent(dataDir, {
      id: 'r20260101T000000-gone',
      file: 'r20260101T000000-gone.duckdb',
      createdAt: '',
      contacts: 0,
      companies: 0,
      source: {},
    });
    engine = await openDuckDBEngine({ dataDir, poolSize: 1, threads: 1, pollMs: 50 });
    const h = await engine.health();
    expect(h.ok).toBe(false);
    expect(h.release).toBeNull();
    expect(h.error).toMatch(/r20260101T000000-gone/);
    await expectCode(engine.run('SELECT 1'), 'data.unavailable');
    await expectCode(engine.distinctValues('contact', 'skills', null, 5), 'data.unavailable');
    // Once a loadable release is published the engine recovers on its own.
    await makeRelease(dataDir, 'r20260102T000000-bbbb', [['b']]);
    await engine.refresh();
    expect((await engine.health()).ok).toBe(true);
  });

  it('reports health false with no CURRENT at all', async () => {
    engine = await openDuckDBEngine({ dataDir, poolSize: 1, threads: 1 });
    expect(await engine.health()).toMatchObject({ ok: false, release: null, error: expect.stringMatching(/CURRENT/) });
  });

  it('keeps serving the old release when a new CURRENT names a broken file', async () => {
    await makeRelease(dataDir, 'r20260101T000000-aaaa', [['a']]);
    engine = await openDuckDBEngine({ dataDir, poolSize: 1, threads: 1 });
    writeFileSync(releaseFile(dataDir, 'r20260102T000000-bbbb'), 'not a database');
    await publishCurrent(dataDir, {
      id: 'r20260102T000000-bbbb',
      file: 'r20260102T000000-bbbb.duckdb',
      createdAt: '',
      contacts: 0,
      companies: 0,
      source: {},
    });
    await engine.refresh();
    expect(engine.release()?.id).toBe('r20260101T000000-aaaa');
    const h = await engine.health();
    expect(h.ok).toBe(true);
    expect(h.error).toMatch(/r20260102T000000-bbbb/);
    expect(await engine.run('SELECT count(*) AS n FROM contacts')).toEqual([{ n: 1 }]);
  });
});

describe('release store', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'cds-store-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('mints ids that sort by time', () => {
    const a = newReleaseId(new Date('2026-01-02T03:04:05Z'));
    const b = newReleaseId(new Date('2026-01-02T03:04:06Z'));
    expect(a).toMatch(/^r20260102T030405-[0-9A-Za-z]{4}$/);
    expect([b, a].sort()).toEqual([a, b]);
  });

  it('mints an id after every existing release, even within the same second', async () => {
    mkdirSync(releasesDir(dataDir), { recursive: true });
    const now = new Date('2026-01-02T03:04:05Z');
    writeFileSync(releaseFile(dataDir, newReleaseId(now)), '');
    const next = await nextReleaseId(dataDir, now);
    expect(next).toMatch(/^r20260102T030406-/);
    expect(await nextReleaseId(dataDir, new Date('2026-02-01T00:00:00Z'))).toMatch(/^r20260201T000000-/);
  });

  it('replaces CURRENT atomically and reads it back', async () => {
    expect(await readCurrent(dataDir)).toBeNull();
    const p = {
      id: 'r20260101T000000-aaaa',
      file: 'r20260101T000000-aaaa.duckdb',
      createdAt: 'x',
      contacts: 3,
      companies: 1,
      source: { a: 1 },
    };
    await publishCurrent(dataDir, p);
    expect(await readCurrent(dataDir)).toEqual(p);
    await publishCurrent(dataDir, { ...p, id: 'r20260102T000000-bbbb' });
    expect((await readCurrent(dataDir))?.id).toBe('r20260102T000000-bbbb');
    expect(existsSync(currentPath(dataDir))).toBe(true);
  });

  it('keeps the newest 3 release files (with their point stores and indexes) and never the one CURRENT names', async () => {
    mkdirSync(releasesDir(dataDir), { recursive: true });
    const ids = [
      'r20260101T000000-aaaa',
      'r20260102T000000-bbbb',
      'r20260103T000000-cccc',
      'r20260104T000000-dddd',
      'r20260105T000000-eeee',
    ];
    for (const id of ids) {
      writeFileSync(releaseFile(dataDir, id), '');
      writeFileSync(pointStoreFile(releaseFile(dataDir, id)), '');
      writeFileSync(indexFile(releaseFile(dataDir, id)), '');
    }
    // A crash between the load's renames leaves a point store still named .tmp: pruned with its release.
    writeFileSync(`${pointStoreFile(releaseFile(dataDir, ids[1]!))}.tmp`, '');
    // CURRENT still names the oldest (say, the newest loads failed to publish): it must survive.
    await publishCurrent(dataDir, {
      id: ids[0]!,
      file: `${ids[0]}.duckdb`,
      createdAt: '',
      contacts: 0,
      companies: 0,
      source: {},
    });
    const deleted = await pruneReleases(dataDir);
    expect(deleted).toEqual([ids[1]]);
    expect(await listReleases(dataDir)).toEqual([ids[0], ids[2], ids[3], ids[4]]);
    expect(existsSync(pointStoreFile(releaseFile(dataDir, ids[1]!)))).toBe(false);
    expect(existsSync(`${pointStoreFile(releaseFile(dataDir, ids[1]!))}.tmp`)).toBe(false);
    expect(existsSync(indexFile(releaseFile(dataDir, ids[1]!)))).toBe(false);
    expect(existsSync(pointStoreFile(releaseFile(dataDir, ids[0]!)))).toBe(true);
    expect(existsSync(indexFile(releaseFile(dataDir, ids[0]!)))).toBe(true);
  });
});
