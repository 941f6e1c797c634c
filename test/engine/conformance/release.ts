import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, JSDuckDBValueConverter } from '@duckdb/node-api';
import { seedRelease } from '../../../loaders/seed.js';
import { currentRelease, releaseFile } from '../../../src/engine/duckdb/release-store.js';
import { splitIntoRowGroups } from '../../helpers/row-groups.js';
import type { Row } from '../../helpers/rows.js';

/** The release every engine of the suite serves, and its stored rows read with plain SQL in sort_key order. */
export interface ConformanceRelease {
  dataDir: string;
  rowGroups: number;
  contacts: Row[];
  companies: Row[];
  remove(): void;
}

export async function conformanceRelease(
  contacts: number,
  companies: number,
  seed: number,
): Promise<ConformanceRelease> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cds-conformance-'));
  await seedRelease({ dataDir, contacts, companies, seed, asOf: new Date('2026-11-01T00:00:00Z') });
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
