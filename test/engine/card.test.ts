import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { CONTACT_CARD_COLUMNS, DEFAULT_CONTACT_COLUMNS } from '../../src/domain/catalog/index.js';
import { or, type IRNode } from '../../src/domain/query/ir.js';
import { CARD_META_KEY, cardCovers, decodeCards, parseCardLayout } from '../../src/engine/duckdb/card.js';
import { pageQuery } from '../../src/engine/duckdb/compile/select.js';
import { openDuckDBEngine, type DuckDBEngine } from '../../src/engine/duckdb/duckdb-engine.js';
import { readCurrent, releaseFile } from '../../src/engine/duckdb/release-store.js';
import { ident } from '../../src/engine/duckdb/schema.js';
import { seedRelease } from '../../loaders/seed.js';

/** Contact cards (engine/duckdb/card.ts): what the card holds, when it is read, and releases without one. */
describe('contact cards', () => {
  let dataDir: string;
  let engine: DuckDBEngine;
  const opened: DuckDBEngine[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cds-card-'));
    await seedRelease({ dataDir, contacts: 1500, companies: 200, seed: 11, asOf: new Date('2026-11-01T00:00:00Z') });
    engine = await openDuckDBEngine({ dataDir, poolSize: 2, threads: 1 });
    opened.push(engine);
  });
  afterAll(async () => {
    for (const e of opened) await e.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Some identifiers of every lookup kind, plus misses, as an enrichment would send them. */
  async function lookupWhere(): Promise<IRNode> {
    const rows = await engine.run('SELECT work_email, network_slug, mobile_phone, direct_phone FROM contacts ORDER BY hash(sort_key) LIMIT 120');
    const pick = (k: string) => rows.map((r) => r[k]).filter((v): v is string => typeof v === 'string').slice(0, 30);
    const phones = [...pick('mobile_phone'), ...pick('direct_phone'), '+14155550000'];
    return or(
      { field: 'work_email', op: 'in', value: [...pick('work_email'), 'nobody@nowhere.example'] },
      { field: 'network_slug', op: 'in', value: [...pick('network_slug'), 'no-such-person'] },
      { field: 'mobile_phone', op: 'in', value: phones },
      { field: 'direct_phone', op: 'in', value: phones },
    );
  }

  it('the loader records the layout, and every stored card decodes to exactly its columns', async () => {
    const [meta] = await engine.run('SELECT value FROM meta WHERE key = $1', [CARD_META_KEY]);
    const layout = parseCardLayout(meta?.value);
    expect(layout).toEqual(CONTACT_CARD_COLUMNS);
    expect(layout).toEqual(expect.arrayContaining([...DEFAULT_CONTACT_COLUMNS, 'network_slug', 'sort_key']));
    const rows = await engine.run(`SELECT card, ${CONTACT_CARD_COLUMNS.map(ident).join(', ')} FROM contacts ORDER BY sort_key`);
    expect(rows).toHaveLength(1500);
    const decoded = decodeCards(rows, layout!, CONTACT_CARD_COLUMNS);
    rows.forEach((r, i) => {
      const { card: _card, ...columns } = r;
      expect(decoded[i]).toEqual(columns);
    });
    // The sample holds every kind of value the card carries: lists, booleans, integers, nulls.
    expect(rows.some((r) => Array.isArray(r.company_industries) && (r.company_industries as unknown[]).length > 1)).toBe(true);
    expect(rows.some((r) => r.has_phone === true) && rows.some((r) => r.has_phone === false)).toBe(true);
    expect(rows.some((r) => r.mobile_phone === null)).toBe(true);
  });

  it('point reads asking only for card columns read the card, and answer what the columns answer', async () => {
    const where = await lookupWhere();
    const columns = [...DEFAULT_CONTACT_COLUMNS, 'network_slug'];
    const viaCard = pageQuery('contact', where, columns, null, 5000, 0, CONTACT_CARD_COLUMNS);
    expect(viaCard.card).toEqual(CONTACT_CARD_COLUMNS);
    expect(viaCard.sql).toContain('card');
    // One column outside the card (headline) sends the query to the columns.
    expect(pageQuery('contact', where, [...columns, 'headline'], null, 5000, 0, CONTACT_CARD_COLUMNS).card).toBeUndefined();
    // Not a point read (a keyset page after the first) never uses the card.
    expect(pageQuery('contact', where, columns, 10, 5000, 0, CONTACT_CARD_COLUMNS).card).toBeUndefined();

    const fromCard = await engine.query('contact', where, { page: { columns, afterSortKey: null, limit: 5000, budgetMs: 10_000 } });
    const wide = await engine.query('contact', where, { page: { columns: [...columns, 'headline'], afterSortKey: null, limit: 5000, budgetMs: 10_000 } });
    expect(fromCard.rows.length).toBeGreaterThan(60);
    expect(fromCard.rows).toEqual(wide.rows.map(({ headline: _h, ...rest }) => rest));
    // Each contact once, in sort_key order, with the limit applied.
    const keys = fromCard.rows.map((r) => Number(r.sort_key));
    expect(keys).toEqual([...new Set(keys)].sort((a, b) => a - b));
    const limited = await engine.query('contact', where, { page: { columns, afterSortKey: null, limit: 7, budgetMs: 10_000 } });
    expect(limited.rows).toEqual(fromCard.rows.slice(0, 7));
  });

  it('a release written without cards is read column by column with the same answers', async () => {
    const where = await lookupWhere();
    const columns = [...DEFAULT_CONTACT_COLUMNS, 'network_slug'];
    const expected = (await engine.query('contact', where, { page: { columns, afterSortKey: null, limit: 5000, budgetMs: 10_000 } })).rows;

    const oldDir = mkdtempSync(join(tmpdir(), 'cds-card-old-'));
    try {
      cpSync(dataDir, oldDir, { recursive: true });
      const pointer = (await readCurrent(oldDir))!;
      // As an older loader wrote it: no layout in meta, and no card values to read.
      const inst = await DuckDBInstance.create(releaseFile(oldDir, pointer.id));
      const c = await inst.connect();
      await c.run('DELETE FROM meta WHERE key = $1', [CARD_META_KEY]);
      await c.run('UPDATE contacts SET card = NULL');
      c.closeSync();
      inst.closeSync();
      const old = await openDuckDBEngine({ dataDir: oldDir, poolSize: 2, threads: 1 });
      opened.push(old);
      const rows = (await old.query('contact', where, { page: { columns, afterSortKey: null, limit: 5000, budgetMs: 10_000 } })).rows;
      expect(rows).toEqual(expected);
      await old.close();
    } finally {
      rmSync(oldDir, { recursive: true, force: true });
    }
  });

  it('reads a layout only when it is a list of names holding sort_key', () => {
    expect(parseCardLayout(JSON.stringify(['id', 'sort_key']))).toEqual(['id', 'sort_key']);
    for (const bad of [undefined, null, 42, '', 'not json', '{}', '[]', '["id"]', '[1, "sort_key"]']) expect(parseCardLayout(bad)).toBeNull();
    expect(cardCovers(null, ['id'])).toBe(false);
    expect(cardCovers(['id', 'sort_key'], ['id'])).toBe(true);
    expect(cardCovers(['id', 'sort_key'], ['id', 'title'])).toBe(false);
  });
});
