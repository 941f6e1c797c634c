import { DuckDBInstance } from '@duckdb/node-api';
import { sha256Of } from '../../src/domain/optouts.js';
import { EMPTY_SUPPRESSION, SUPPRESSION_COLUMNS, suppressionOf } from '../../src/domain/suppression.js';
import { type DuckDBEngine, openDuckDBEngine } from '../../src/engine/duckdb/duckdb-engine.js';
import { currentRelease, releaseFile } from '../../src/engine/duckdb/release-store.js';
import { HashPrefixIndex } from '../../src/engine/duckdb/suppression/hash-index.js';
import { type ConformanceRelease, conformanceRelease } from './conformance/release.js';

/**
 * Resolution of sha256 opt-outs: the release's emails and phones are hashed once (hash-index.ts keeps the first 32
 * bits of each hash), candidates sharing those bits are checked against the whole hash. Expected matches are
 * computed here with node:crypto over the stored rows.
 */

let rel: ConformanceRelease;
let engine: DuckDBEngine;
beforeAll(async () => {
  rel = await conformanceRelease(1500, 150, 5);
  engine = await openDuckDBEngine({ dataDir: rel.dataDir, poolSize: 2, threads: 1, memoryLimit: '512MB' });
}, 120_000);
afterAll(async () => {
  await engine.close();
  rel.remove();
});

/** The hash with its last hex digit changed: same 32-bit prefix, another hash. */
const forged = (hex: string): string => hex.slice(0, -1) + (hex.endsWith('0') ? '1' : '0');

it('the opt-out list splits by type into the suppression list', () => {
  expect(
    suppressionOf([
      { type: 'id', value: 'per_1' },
      { type: 'email', value: 'a@b.com' },
      { type: 'phone', value: '+14155550100' },
      { type: 'url', value: 'jane-doe' },
      { type: 'sha256', value: sha256Of('a@b.com') },
      { type: 'email', value: 'c@d.com' },
    ]),
  ).toEqual({
    ids: ['per_1'],
    emails: ['a@b.com', 'c@d.com'],
    phones: ['+14155550100'],
    slugs: ['jane-doe'],
    sha256: [sha256Of('a@b.com')],
  });
  expect(SUPPRESSION_COLUMNS.sha256).toEqual(['work_email', 'mobile_phone', 'direct_phone']);
});

it('the prefix index names, for a hash, every row holding a value of that hash, and rows sharing its prefix', async () => {
  const inst = await DuckDBInstance.create(releaseFile(rel.dataDir, currentRelease(rel.dataDir)!.id), {
    access_mode: 'READ_ONLY',
  });
  const conn = await inst.connect();
  try {
    const ix = await HashPrefixIndex.build(conn);
    const values = rel.contacts.flatMap((r) =>
      SUPPRESSION_COLUMNS.sha256.flatMap((c) => (typeof r[c] === 'string' && r[c] !== '' ? [[r[c], r.sort_key]] : [])),
    );
    expect(ix.size).toBe(values.length);
    for (const [value, key] of values.filter((_, i) => i % 37 === 0)) {
      const hex = sha256Of(value as string);
      expect(ix.candidates(hex)).toContain(key);
      // A prefix is all it compares: the forged hash names the same rows (resolution then checks the whole hash).
      expect(ix.candidates(forged(hex))).toEqual(ix.candidates(hex));
    }
    expect(ix.candidates(sha256Of('nobody@nowhere.example'))).toEqual([]);
  } finally {
    conn.closeSync();
    inst.closeSync();
  }
});

it('a sha256 entry suppresses exactly the contacts holding an email or phone of that hash', async () => {
  const withEmail = rel.contacts.filter((r) => r.work_email).slice(0, 30);
  const withMobile = rel.contacts.filter((r) => r.mobile_phone).slice(10, 30);
  const withDirect = rel.contacts.filter((r) => r.direct_phone).slice(5, 25);
  const hashes = [
    ...withEmail.map((r) => sha256Of(r.work_email)),
    ...withMobile.map((r) => sha256Of(r.mobile_phone)),
    ...withDirect.map((r) => sha256Of(r.direct_phone)),
  ];
  const wanted = new Set(hashes);
  const expected = rel.contacts.filter((r) =>
    SUPPRESSION_COLUMNS.sha256.some((c) => typeof r[c] === 'string' && wanted.has(sha256Of(r[c]))),
  );
  expect(await engine.setSuppression({ ...EMPTY_SUPPRESSION, sha256: hashes })).toEqual({
    contacts: expected.length,
  });
  const count = await engine.query('contact', { and: [] }, { countBudgetMs: 10_000 });
  expect(count.count).toBe(rel.contacts.length - expected.length);
  // Hashes of the same value and of the same value in another form (not normalized) match nothing more.
  expect(
    await engine.setSuppression({
      ...EMPTY_SUPPRESSION,
      sha256: [...hashes, ...hashes, sha256Of(String(withEmail[0]!.work_email).toUpperCase())],
    }),
  ).toEqual({ contacts: expected.length });
});

it('a hash sharing the first 32 bits of a stored value but not the rest matches nothing', async () => {
  const forgedHashes = rel.contacts
    .filter((r) => r.work_email)
    .slice(0, 50)
    .map((r) => forged(sha256Of(r.work_email)));
  expect(await engine.setSuppression({ ...EMPTY_SUPPRESSION, sha256: forgedHashes })).toEqual({ contacts: 0 });
  expect((await engine.query('contact', { and: [] }, { countBudgetMs: 10_000 })).count).toBe(rel.contacts.length);
  expect(await engine.setSuppression(EMPTY_SUPPRESSION)).toEqual({ contacts: 0 });
});
