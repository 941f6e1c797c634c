import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { seedRelease } from '../../loaders/seed.js';
import { describeReleases } from '../../src/engine/duckdb/releases.js';
import { cds } from '../helpers/child-server.js';

/**
 * `cds load` reads gzip-compressed dumps directly and writes a machine-readable report (`--report FILE`) a
 * scheduler can act on: release id, duration, rows read / loaded / rejected, rejects by reason.
 */

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'cds-load-cli-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = cds(args);
    let out = '';
    let err = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

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
