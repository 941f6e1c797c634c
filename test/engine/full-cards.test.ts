import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { seedRelease } from '../../loaders/seed.js';
import { CONTACT_CARD_COLUMNS, publicColumns } from '../../src/domain/catalog/index.js';
import { type IRNode, or } from '../../src/domain/query/ir.js';
import { pageQuery } from '../../src/engine/duckdb/compile/select.js';
import { type DuckDBEngine, openDuckDBEngine } from '../../src/engine/duckdb/duckdb-engine.js';
import { decodeCards, parseCardLayout } from '../../src/engine/duckdb/point-store/layout.js';
import { FULL_CARD_COLUMNS, pointStoreFile } from '../../src/engine/duckdb/point-store/schema.js';
import { readCurrent, releaseFile } from '../../src/engine/duckdb/release-store.js';
import { ident } from '../../src/engine/duckdb/schema.js';

/**
 * Full cards (`cds load --full-cards`): the point store also holds every public column of each contact, so point
 * reads and index pages of `columns: ["*"]` are answered from it, exactly as the release's columns answer them.
 */
describe('point store with full cards', () => {
  const asOf = new Date('2026-11-01T00:00:00Z');
  const every = publicColumns('contact').map((c) => c.name);
  let dataDir: string;
  let plainDir: string;
  let releaseId: string;
  const opened: DuckDBEngine[] = [];
  const dirs: string[] = [];
  let engine: DuckDBEngine;

  const open = async (dir: string): Promise<DuckDBEngine> => {
    const e = await openDuckDBEngine({ dataDir: dir, poolSize: 2, threads: 1 });
    opened.push(e);
    return e;
  };
  const tmp = (name: string): string => {
    const d = mkdtempSync(join(tmpdir(), name));
    dirs.push(d);
    return d;
  };

  beforeAll(async () => {
    dataDir = tmp('cds-full-cards-');
    plainDir = tmp('cds-plain-cards-');
    await seedRelease({ dataDir, contacts: 1500, companies: 200, seed: 11, asOf, fullCards: true });
    await seedRelease({ dataDir: plainDir, contacts: 1500, companies: 200, seed: 11, asOf });
    releaseId = (await readCurrent(dataDir))!.id;
    engine = await open(dataDir);
  });
  afterAll(async () => {
    for (const e of opened) await e.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const page = (e: DuckDBEngine, where: IRNode, cols: readonly string[], limit = 5000) =>
    e
      .query('contact', where, { page: { columns: [...cols], afterSortKey: null, limit, budgetMs: 10_000 } })
      .then((r) => r.rows);
  const fromColumns = (e: DuckDBEngine, where: IRNode, cols: readonly string[], after: number | null = null) => {
    const q = pageQuery('contact', where, cols, after, 100);
    return e.run(q.sql, q.params);
  };

  async function identifiers(e: DuckDBEngine): Promise<IRNode> {
    const rows = await e.run(
      'SELECT work_email, network_slug FROM contacts WHERE work_email IS NOT NULL ORDER BY hash(sort_key) LIMIT 40',
    );
    return or(
      { field: 'work_email', op: 'in', value: rows.slice(0, 20).map((r) => String(r.work_email)) },
      {
        field: 'network_slug',
        op: 'in',
        value: rows.slice(20).flatMap((r) => (r.network_slug ? [String(r.network_slug)] : [])),
      },
    );
  }

  it('the loader writes one full card per contact, each equal to every public column of its row', async () => {
    expect(FULL_CARD_COLUMNS).toEqual(expect.arrayContaining([...every, ...CONTACT_CARD_COLUMNS]));
    const db = new Database(pointStoreFile(releaseFile(dataDir, releaseId)), { readonly: true });
    try {
      const meta = Object.fromEntries(db.prepare('SELECT key, value FROM meta').raw().all() as [string, string][]);
      expect(parseCardLayout(meta.full_card_columns)).toEqual(FULL_CARD_COLUMNS);
      const cards = db.prepare('SELECT card FROM full_cards ORDER BY sort_key').pluck().all() as string[];
      const rows = await engine.run(
        `SELECT ${FULL_CARD_COLUMNS.map(ident).join(', ')} FROM contacts ORDER BY sort_key`,
      );
      expect(cards).toHaveLength(1500);
      expect(decodeCards(cards, FULL_CARD_COLUMNS, FULL_CARD_COLUMNS)).toEqual(rows);
      // Records, lists and nulls round-trip (experience, skills, missing phones).
      expect(rows.filter((r) => r.experience !== null).length).toBeGreaterThan(1000);
      expect(rows.some((r) => r.mobile_phone === null)).toBe(true);
      expect(rows.some((r) => Array.isArray(r.skills) && (r.skills as unknown[]).length > 1)).toBe(true);
    } finally {
      db.close();
    }
    // A release loaded without them has no full cards.
    const plainId = (await readCurrent(plainDir))!.id;
    const plain = new Database(pointStoreFile(releaseFile(plainDir, plainId)), { readonly: true });
    try {
      const tables = plain.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
      expect(tables).not.toContain('full_cards');
    } finally {
      plain.close();
    }
  });

  it('answers point reads and index pages of every column exactly as the columns do, from the full cards', async () => {
    const where = await identifiers(engine);
    const rows = await page(engine, where, every);
    expect(rows.length).toBeGreaterThan(30);
    expect(rows).toEqual((await fromColumns(engine, where, every)).slice(0, rows.length));
    // An index page (not a point read) of every column.
    const us: IRNode = { field: 'country', op: 'eq', value: 'us' };
    expect(await page(engine, us, every, 100)).toEqual(await fromColumns(engine, us, every));
    // The same reads on the same data without full cards: the same answers, from the columns.
    const plain = await open(plainDir);
    expect(await page(plain, where, every)).toEqual(rows);
    expect(await page(plain, us, every, 100)).toEqual(await page(engine, us, every, 100));
  });

  it('is what answers them: a changed full card shows in reads of every column, not in card-only reads', async () => {
    const where = await identifiers(engine);
    const target = (await page(engine, where, every))[0]!;
    const dir = tmp('cds-full-cards-copy-');
    cpSync(dataDir, dir, { recursive: true });
    const db = new Database(pointStoreFile(releaseFile(dir, releaseId)));
    db.prepare(
      `UPDATE full_cards SET card = json_set(card, '$[${FULL_CARD_COLUMNS.indexOf('headline')}]', 'From The Full Card') ` +
        'WHERE sort_key = ?',
    ).run(Number(target.sort_key));
    db.close();
    const e = await open(dir);
    expect((await page(e, where, every))[0]).toEqual({ ...target, headline: 'From The Full Card' });
    // The default columns still come from the (unchanged) cards.
    const card = (await page(e, where, CONTACT_CARD_COLUMNS))[0]!;
    expect(card.id).toBe(target.id);
    expect((await page(e, where, [...CONTACT_CARD_COLUMNS, 'headline']))[0]!.headline).toBe('From The Full Card');
    expect((await engine.health()).pointReads).toEqual({ ok: true });
  });
});
