import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { seedRelease } from '../../loaders/seed.js';
import { BASE, baseEmployers, openDeltaBase } from '../../src/engine/duckdb/release-writer/delta-base.js';
import type { BaseEmployer } from '../../src/engine/release-writer.js';

/**
 * A delta's serving employers as DuckDB writes them for the load's workers (delta-base.ts baseEmployers): JSON texts
 * of a bounded number of employers that together hold every company of the release (or those asked for), each field
 * as stored.
 */

let dir: string;
let instance: DuckDBInstance;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cds-delta-employers-'));
  await seedRelease({ dataDir: dir, contacts: 400, companies: 53, seed: 8, asOf: new Date('2026-11-01T00:00:00Z') });
  instance = await DuckDBInstance.create(':memory:');
}, 120_000);
afterAll(() => {
  instance?.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

test('every company once, split into texts of at most the given size, fields as stored', async () => {
  const conn = await instance.connect();
  try {
    const base = await openDeltaBase(conn, dir, { people: 'p', companies: 'c' });
    expect(base).not.toBeNull();
    const stored = (await conn.runAndReadAll(`SELECT id, name, domain, name_norm, is_public FROM ${BASE}.companies`))
      .getRows()
      .map(
        ([id, name, domain, nameNorm, isPublic]): BaseEmployer => ({
          id: String(id),
          name: String(name),
          domain: (domain as string | null) ?? null,
          nameNorm: (nameNorm as string | null) ?? null,
          isPublic: isPublic === true,
        }),
      );
    expect(stored.length).toBe(53);
    const byId = (list: BaseEmployer[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));

    const whole = await base!.employers();
    expect(whole.length).toBe(1);
    expect(byId(JSON.parse(whole[0]!) as BaseEmployer[])).toEqual(byId(stored));

    const parts = await baseEmployers(conn, 10);
    expect(parts.length).toBe(6);
    const lists = parts.map((t) => JSON.parse(t) as BaseEmployer[]);
    for (const l of lists) expect(l.length).toBeLessThanOrEqual(10);
    expect(byId(lists.flat())).toEqual(byId(stored));

    // Only the companies named (the ones a delta's people name), an id no company has left out.
    const named = [stored[4]!.id, stored[40]!.id, stored[4]!.id, 'com_nosuchcompany'];
    const some = (await base!.employers(named)).flatMap((t) => JSON.parse(t) as BaseEmployer[]);
    expect(byId(some)).toEqual(byId([stored[4]!, stored[40]!]));
    expect(await base!.employers([])).toEqual([]);
  } finally {
    conn.closeSync();
  }
});
