import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readDeletes } from '../../loaders/load/deletes-file.js';
import { DeltaRefused } from '../../src/engine/release-writer.js';

/** The deletes file of a delta load (loaders/load/deletes-file.ts): ids a line, or JSON Lines with person_id. */

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cds-deletes-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, text: string | Buffer): string => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};

it('reads plain ids and JSON Lines objects, skipping blank lines and CRLF endings', async () => {
  const f = file('mixed.txt', 'per_a\r\n\n  per_b  \n{"person_id":"per_c","reason":"gdpr"}\n\r\n');
  expect(await readDeletes(f)).toEqual(['per_a', 'per_b', 'per_c']);
});

it('reads a gzip-compressed file', async () => {
  expect(await readDeletes(file('ids.txt.gz', gzipSync('per_x\nper_y\n')))).toEqual(['per_x', 'per_y']);
});

it.each([
  ['an id without the per_ prefix', 'per_a\ncom_b\n', 2],
  ['an id with a space', 'per_a b\n', 1],
  ['JSON without person_id', 'per_a\nper_b\n{"id":"per_c"}\n', 3],
  ['a person_id that is not a string', '{"person_id":12}\n', 1],
  ['broken JSON', '{"person_id":"per_a"\n', 1],
])('refuses %s with its line number', async (_what, text, line) => {
  const f = file(`bad-${line}-${text.length}.txt`, text);
  await expect(readDeletes(f)).rejects.toThrow(DeltaRefused);
  await expect(readDeletes(f)).rejects.toThrow(new RegExp(`line ${line}: expected a person id`));
});
