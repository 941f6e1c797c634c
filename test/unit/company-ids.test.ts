import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchWork } from '../../loaders/load/batch-work.js';

/**
 * A delta's first look at its people (batch-work.ts companyIds): the company ids their roles name, each once, from
 * valid rows only; nothing staged, nothing rejected.
 */

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cds-company-ids-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const person = (id: string, companies: (string | null)[]) =>
  JSON.stringify({
    person_id: id,
    updated_at: '2026-10-01',
    first_name: 'Ada',
    last_name: 'Lovelace',
    roles: companies.map((c, i) => ({ title: `Engineer ${i}`, ...(c === null ? {} : { company_id: c }) })),
  });

test('names each company id of the valid people once, stages and rejects nothing', () => {
  const work = new BatchWork({
    networkHost: 'example.net',
    asOf: Date.now(),
    stagingDir: dir,
    prefix: 'w0',
    rowsPerFile: 10,
  });
  const lines = [
    person('per_one', ['com_a', 'com_b']),
    person('per_two', ['com_b', null]),
    '{"person_id": broken json',
    JSON.stringify({ updated_at: '2026-10-01', first_name: 'No id', roles: [{ company_id: 'com_invalid' }] }),
    person('per_three', ['com_c']),
    '',
  ];
  const result = work.companyIds({ firstLine: 1, bytes: Buffer.from(lines.join('\n')) });
  expect(result.companyIds!.sort()).toEqual(['com_a', 'com_b', 'com_c']);
  expect(result.rejects).toEqual([]);
  expect(result.files).toEqual([]);
  expect(work.end('people').files).toEqual([]);
  expect(readdirSync(dir)).toEqual([]);
});
