import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { seedRelease } from '../../loaders/seed.js';
import { ensureSecret, loadConfig } from '../../src/config.js';
import { sha256Of } from '../../src/domain/optouts.js';
import { describeReleases } from '../../src/engine/duckdb/releases.js';
import { openState } from '../../src/services.js';
import { runCds } from '../helpers/child-server.js';

/**
 * `cds load` reads gzip-compressed dumps directly and writes a machine-readable report (`--report FILE`) a
 * scheduler can act on: release id, duration, rows read / loaded / rejected, rejects by reason.
 */

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'cds-load-cli-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const run = runCds;

it('loads .jsonl.gz dumps as the plain ones, and reports rows and rejects by reason', async () => {
  const plainDir = join(root, 'plain');
  const seeded = await seedRelease({
    dataDir: plainDir,
    contacts: 500,
    companies: 60,
    seed: 3,
    asOf: new Date('2026-11-01T00:00:00Z'),
  });
  const people = seeded.generate.peopleFile;
  const companies = seeded.generate.companiesFile;
  // Two bad rows added to the people dump, then both dumps gzipped.
  const peopleCopy = join(root, 'people.jsonl');
  writeFileSync(peopleCopy, readFileSync(people));
  appendFileSync(peopleCopy, '{"full_name":"No Id","updated_at":"2026-01-01"}\n');
  appendFileSync(peopleCopy, '{"person_id":"per_badupdated","full_name":"Bad Date","updated_at":"yesterday"}\n');
  writeFileSync(join(root, 'people.jsonl.gz'), gzipSync(readFileSync(peopleCopy)));
  writeFileSync(join(root, 'companies.jsonl.gz'), gzipSync(readFileSync(companies)));

  const gzDir = join(root, 'gz');
  const reportFile = join(root, 'report.json');
  const res = await run([
    'load',
    '--data',
    gzDir,
    '--people',
    join(root, 'people.jsonl.gz'),
    '--companies',
    join(root, 'companies.jsonl.gz'),
    '--report',
    reportFile,
  ]);
  expect(res.code).toBe(0);
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  const [plain] = await describeReleases(plainDir);
  const [gz] = await describeReleases(gzDir);
  expect(gz!.contacts).toBe(plain!.contacts);
  expect(gz!.companies).toBe(plain!.companies);
  expect(report).toMatchObject({
    release_id: gz!.id,
    people: { file: 'people.jsonl.gz', read: plain!.contacts! + 2, loaded: plain!.contacts, rejected: 2 },
    companies: { file: 'companies.jsonl.gz', loaded: plain!.companies, rejected: 0 },
    rejected_by_reason: { person_id: 1, updated_at: 1 },
  });
  expect(report.duration_ms).toBeGreaterThan(0);
}, 120_000);

it('a Parquet dump and the same data as JSON Lines give identical releases, every column of every row', async () => {
  const seeded = await seedRelease({
    dataDir: join(root, 'seed-for-parquet'),
    contacts: 400,
    companies: 50,
    seed: 8,
    asOf: new Date('2026-11-01T00:00:00Z'),
  });
  const files = { people: seeded.generate.peopleFile, companies: seeded.generate.companiesFile };
  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  for (const kind of ['people', 'companies'] as const) {
    await conn.run(
      `COPY (SELECT * FROM read_json_auto('${files[kind]}', sample_size = -1)) TO '${join(root, `${kind}.parquet`)}' (FORMAT parquet)`,
    );
  }
  const load = (dir: string, people: string, companies: string) =>
    run(['load', '--data', join(root, dir), '--people', people, '--companies', companies]);
  expect((await load('from-jsonl', files.people, files.companies)).code).toBe(0);
  const fromParquet = await load('from-parquet', join(root, 'people.parquet'), join(root, 'companies.parquet'));
  expect(fromParquet.code).toBe(0);
  const [a] = await describeReleases(join(root, 'from-jsonl'));
  const [b] = await describeReleases(join(root, 'from-parquet'));
  expect(b!.contacts).toBe(400);
  await conn.run(`ATTACH '${join(root, 'from-jsonl', 'releases', `${a!.id}.duckdb`)}' AS a (READ_ONLY)`);
  await conn.run(`ATTACH '${join(root, 'from-parquet', 'releases', `${b!.id}.duckdb`)}' AS b (READ_ONLY)`);
  for (const table of ['contacts', 'companies']) {
    for (const [x, y] of [
      ['a', 'b'],
      ['b', 'a'],
    ]) {
      const diff = await conn.runAndReadAll(
        `SELECT count(*) AS n FROM (SELECT * FROM ${x}.${table} EXCEPT ALL SELECT * FROM ${y}.${table})`,
      );
      expect({ table, [`${x}-${y}`]: Number(diff.getRowObjects()[0]!.n) }).toEqual({ table, [`${x}-${y}`]: 0 });
    }
  }
  conn.closeSync();
  inst.closeSync();
}, 120_000);

it('exits 2 on bad arguments and 1 on a failed load', async () => {
  expect((await run(['load', '--data', join(root, 'bad')])).code).toBe(2);
  const missing = await run([
    'load',
    '--data',
    join(root, 'bad'),
    '--people',
    '/nope.jsonl',
    '--companies',
    '/nope.jsonl',
  ]);
  expect(missing.code).toBe(1);
  expect(missing.err).toMatch(/no such dump file/);
});

it('leaves out the people on the opt-out list of the state store, counted by identifier type', async () => {
  const dataDir = join(root, 'opted-out');
  const seeded = await seedRelease({
    dataDir: join(root, 'opt-out-source'),
    contacts: 300,
    companies: 40,
    seed: 4,
    asOf: new Date('2026-11-01T00:00:00Z'),
  });
  const people = readFileSync(seeded.generate.peopleFile, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { person_id: string; email?: string | null });
  const withEmail = people.filter((p) => p.email);
  const config = loadConfig(['--data', dataDir]);
  const state = await openState(config, ensureSecret(config));
  await state.addOptOuts(
    [
      { type: 'id', value: people[0]!.person_id },
      { type: 'id', value: 'per_nobody' },
      { type: 'email', value: withEmail[1]!.email!.toLowerCase() },
      { type: 'sha256', value: sha256Of(withEmail[2]!.email!.toLowerCase()) },
    ],
    { action: 'add', actor: 'cli:test' },
    new Date(),
  );
  await state.close();
  const reportFile = join(root, 'opted-out-report.json');
  const res = await run([
    'load',
    '--data',
    dataDir,
    '--people',
    seeded.generate.peopleFile,
    '--companies',
    seeded.generate.companiesFile,
    '--report',
    reportFile,
  ]);
  expect(res.code).toBe(0);
  expect(JSON.parse(res.out)).toMatchObject({
    contacts: seeded.load.contacts - 3,
    suppressed: { people: 3, by_type: { id: 1, email: 1, phone: 0, url: 0, sha256: 1 } },
  });
  expect(JSON.parse(readFileSync(reportFile, 'utf8'))).toMatchObject({
    people: { read: seeded.load.contacts, loaded: seeded.load.contacts - 3, rejected: 0, suppressed: 3 },
    suppressed_by_type: { id: 1, email: 1, phone: 0, url: 0, sha256: 1 },
  });
}, 120_000);
