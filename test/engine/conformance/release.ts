import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, JSDuckDBValueConverter } from '@duckdb/node-api';
import { seedRelease } from '../../../loaders/seed.js';
import { currentRelease, releaseFile } from '../../../src/engine/duckdb/release-store.js';
import { loadCutDelta } from '../../helpers/cut-delta.js';
import { splitIntoRowGroups } from '../../helpers/row-groups.js';
import type { Row } from '../../helpers/rows.js';
import { seedFromCache } from '../../helpers/seed-cache.js';

/** The release every engine of the suite serves, and its stored rows read with plain SQL in sort_key order. */
export interface ConformanceRelease {
  dataDir: string;
  rowGroups: number;
  contacts: Row[];
  companies: Row[];
  remove(): void;
}

/**
 * `opts.deltas`: then delta loads patch the seeded release (loaders/load/delta.ts), one after the other, each with
 * that share of the people retitled, deleted or added and of the companies resized (bench/lib/delta-files.ts), so the
 * suite also runs on a release with empty positions, rows rewritten in place and new rows after the last (and, from
 * the second, a patched parent).
 */
export async function conformanceRelease(
  contacts: number,
  companies: number,
  seed: number,
  opts: { deltas?: readonly number[] } = {},
): Promise<ConformanceRelease> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cds-conformance-'));
  const asOf = new Date('2026-11-01T00:00:00Z');
  const deltas = opts.deltas ?? [];
  // The deltas are cut from the seeded dumps (the generator's report names them), so only a release without deltas
  // comes from the run's cache.
  const seeded = deltas.length > 0 ? await seedRelease({ dataDir, contacts, companies, seed, asOf }) : null;
  if (!seeded) await seedFromCache(dataDir, { contacts, companies, seed, asOf });
  for (const [i, share] of deltas.entries()) {
    const report = await loadCutDelta(dataDir, seeded!.generate, join(dataDir, `delta-${i}`), share);
    if (report.delta?.patched !== true) throw new Error('the delta was rebuilt, not patched');
  }
  const rowGroups = await splitIntoRowGroups(dataDir, 2048);
  const current = currentRelease(dataDir)!;
  const inst = await DuckDBInstance.create(releaseFile(dataDir, current.id), { access_mode: 'READ_ONLY' });
  const c = await inst.connect();
  const read = async (table: string): Promise<Row[]> => {
    const reader = await c.runAndReadAll(`SELECT * FROM ${table} ORDER BY sort_key`);
    return reader.convertRowObjects(JSDuckDBValueConverter).map((r) => {
      const out: Row = {};
      for (const [k, v] of Object.entries(r)) out[k] = typeof v === 'bigint' ? Number(v) : v;
      return out;
    });
  };
  try {
    return {
      dataDir,
      rowGroups,
      contacts: await read('contacts'),
      companies: await read('companies'),
      remove: () => rmSync(dataDir, { recursive: true, force: true }),
    };
  } finally {
    c.closeSync();
    inst.closeSync();
  }
}
