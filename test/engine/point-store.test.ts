import { closeSync, cpSync, existsSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { seedRelease } from '../../loaders/seed.js';
import { CONTACT_CARD_COLUMNS, CONTACT_COLUMNS, DEFAULT_CONTACT_COLUMNS } from '../../src/domain/catalog/index.js';
import { type IRNode, or } from '../../src/domain/query/ir.js';
import { pageQuery } from '../../src/engine/duckdb/compile/select.js';
import { type DuckDBEngine, openDuckDBEngine } from '../../src/engine/duckdb/duckdb-engine.js';
import { cardCovers, decodeCards, parseCardLayout, renderCards } from '../../src/engine/duckdb/point-store/layout.js';
import { keyTable, POINT_KEY_COLUMNS, pointStoreFile } from '../../src/engine/duckdb/point-store/schema.js';
import { readCurrent, releaseFile } from '../../src/engine/duckdb/release-store.js';
import { ident } from '../../src/engine/duckdb/schema.js';
import { candidateColumns } from '../../src/operations/enrichment/lookup-candidates.js';
import { employeesWhere, FROM_PERSON_COLUMNS, PERSON_FIELDS } from '../../src/operations/family-b/enrich.js';

/** The point store of a release (engine/duckdb/point-store): what the loader writes, when it answers, and fallbacks. */
describe('point store', () => {
  let dataDir: string;
  let engine: DuckDBEngine;
  let releaseId: string;
  const opened: DuckDBEngine[] = [];
  const copies: string[] = [];
  const columns = [...DEFAULT_CONTACT_COLUMNS, 'network_slug'];
  /** What the family B enrichments read: from-network and from-email by identifier, from-person by employer. */
  const familyB = candidateColumns(PERSON_FIELDS);
  /** The columns a card holds beyond the default set and the lookup columns (catalog flag `card`). */
  const nameColumns = CONTACT_COLUMNS.filter((c) => c.card).map((c) => c.name);

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cds-points-'));
    await seedRelease({ dataDir, contacts: 1500, companies: 200, seed: 11, asOf: new Date('2026-11-01T00:00:00Z') });
    releaseId = (await readCurrent(dataDir))!.id;
    engine = await open(dataDir);
  });
  afterAll(async () => {
    for (const e of opened) await e.close();
    for (const d of [dataDir, ...copies]) rmSync(d, { recursive: true, force: true });
  });

  async function open(dir: string): Promise<DuckDBEngine> {
    const e = await openDuckDBEngine({ dataDir: dir, poolSize: 2, threads: 1 });
    opened.push(e);
    return e;
  }

  /** A copy of the seeded data dir, and the path of its point store. */
  function copy(): { dir: string; points: string } {
    const dir = mkdtempSync(join(tmpdir(), 'cds-points-copy-'));
    copies.push(dir);
    cpSync(dataDir, dir, { recursive: true });
    return { dir, points: pointStoreFile(releaseFile(dir, releaseId)) };
  }

  /** A copy of the seeded data dir whose point store got one statement (the store removed when null). */
  function copyWithStore(sql: string | null, ...params: unknown[]): string {
    const { dir, points } = copy();
    if (sql === null) {
      rmSync(points);
      return dir;
    }
    const db = new Database(points);
    db.prepare(sql).run(...params);
    db.close();
    return dir;
  }

  /**
   * Identifiers of every lookup kind plus misses, as an enrichment sends them; phones shared by two contacts included.
   */
  async function lookupWhere(): Promise<IRNode> {
    const rows = await engine.run(
      'SELECT work_email, network_slug, mobile_phone, direct_phone FROM contacts ORDER BY hash(sort_key) LIMIT 120',
    );
    const pick = (k: string) =>
      rows
        .map((r) => r[k])
        .filter((v): v is string => typeof v === 'string')
        .slice(0, 30);
    const shared = await engine.run(
      'SELECT direct_phone AS p FROM contacts WHERE direct_phone IS NOT NULL GROUP BY 1 HAVING count(*) > 1 ORDER ' +
        'BY 1 LIMIT 3',
    );
    const phones = [
      ...pick('mobile_phone'),
      ...pick('direct_phone'),
      ...shared.map((r) => String(r.p)),
      '+14155550000',
    ];
    return or(
      { field: 'work_email', op: 'in', value: [...pick('work_email'), 'nobody@nowhere.example'] },
      { field: 'network_slug', op: 'in', value: [...pick('network_slug'), 'no-such-person'] },
      { field: 'mobile_phone', op: 'in', value: phones },
      { field: 'direct_phone', op: 'in', value: phones },
    );
  }

  /** The release's own answer to a point read: the DuckDB UNION ALL page, run directly. */
  async function fromColumns(
    e: DuckDBEngine,
    where: IRNode,
    cols: readonly string[],
    limit: number,
  ): Promise<Record<string, unknown>[]> {
    const q = pageQuery('contact', where, cols, null, limit);
    return e.run(q.sql, q.params);
  }

  const page = (e: DuckDBEngine, where: IRNode, cols: readonly string[], limit = 5000) =>
    e
      .query('contact', where, { page: { columns: [...cols], afterSortKey: null, limit, budgetMs: 10_000 } })
      .then((r) => r.rows);

  it('the loader writes it beside the release: its release id, the card layout, every card equal to its columns', async () => {
    const file = pointStoreFile(releaseFile(dataDir, releaseId));
    expect(existsSync(file)).toBe(true);
    const db = new Database(file, { readonly: true });
    try {
      const meta = Object.fromEntries(db.prepare('SELECT key, value FROM meta').raw().all() as [string, string][]);
      expect(meta.release_id).toBe(releaseId);
      expect(parseCardLayout(meta.card_columns)).toEqual(CONTACT_CARD_COLUMNS);
      expect(CONTACT_CARD_COLUMNS).toEqual(
        expect.arrayContaining([...DEFAULT_CONTACT_COLUMNS, ...POINT_KEY_COLUMNS, 'sort_key']),
      );
      // What the family B enrichments match on and answer with is on the card too.
      expect(nameColumns).toEqual(['first_name', 'last_name', 'company_name_norm']);
      expect(CONTACT_CARD_COLUMNS).toEqual(expect.arrayContaining([...familyB, ...FROM_PERSON_COLUMNS]));

      const cards = db.prepare('SELECT sort_key, card FROM cards ORDER BY sort_key').all() as {
        sort_key: number;
        card: string;
      }[];
      const rows = await engine.run(
        `SELECT ${CONTACT_CARD_COLUMNS.map(ident).join(', ')} FROM contacts ORDER BY sort_key`,
      );
      expect(cards).toHaveLength(1500);
      expect(cards.map((c) => c.sort_key)).toEqual(rows.map((r) => r.sort_key));
      expect(
        decodeCards(
          cards.map((c) => c.card),
          CONTACT_CARD_COLUMNS,
          CONTACT_CARD_COLUMNS,
        ),
      ).toEqual(rows);
      // The sample holds every kind of value a card carries: lists, booleans, integers, nulls.
      expect(
        rows.some((r) => Array.isArray(r.company_industries) && (r.company_industries as unknown[]).length > 1),
      ).toBe(true);
      expect(rows.some((r) => r.has_phone === true) && rows.some((r) => r.has_phone === false)).toBe(true);
      expect(rows.some((r) => r.mobile_phone === null)).toBe(true);
      // Names with accents (what from-person folds away), missing names, normalized company names.
      const names = rows.map((r) => r.first_name).concat(rows.map((r) => r.last_name));
      expect(names.some((n) => typeof n === 'string' && n !== n.normalize('NFKD').replace(/\p{M}/gu, ''))).toBe(true);
      expect(rows.some((r) => r.first_name === null || r.last_name === null)).toBe(true);
      expect(rows.filter((r) => typeof r.company_name_norm === 'string').length).toBeGreaterThan(1000);

      // Each key table holds exactly the (value, sort_key) pairs of its column.
      for (const column of POINT_KEY_COLUMNS) {
        const stored = db
          .prepare(`SELECT value, sort_key FROM ${ident(keyTable(column))} ORDER BY value, sort_key`)
          .all();
        const expected = await engine.run(
          `SELECT ${ident(column)} AS value, sort_key FROM contacts WHERE ${ident(column)} IS NOT NULL ORDER BY ` +
            `value, sort_key`,
        );
        expect(stored.length).toBeGreaterThan(100);
        expect(stored).toEqual(expected);
      }
    } finally {
      db.close();
    }
    expect((await engine.health()).pointReads).toEqual({ ok: true });
  });

  it('answers point reads exactly as the release does: each contact once, in sort_key order, limit applied', async () => {
    const where = await lookupWhere();
    const rows = await page(engine, where, columns);
    expect(rows.length).toBeGreaterThan(60);
    expect(rows).toEqual(await fromColumns(engine, where, columns, 5000));
    const keys = rows.map((r) => Number(r.sort_key));
    expect(keys).toEqual([...new Set(keys)].sort((a, b) => a - b));
    expect(await page(engine, where, columns, 7)).toEqual(rows.slice(0, 7));
    // A shared number (a switchboard line) reaches every contact holding it, in either phone column.
    const [shared] = await engine.run(
      `SELECT p, count(DISTINCT sort_key) AS n FROM (SELECT mobile_phone AS p, sort_key FROM contacts UNION ALL SELECT direct_phone, sort_key FROM contacts)
       WHERE p IS NOT NULL GROUP BY p HAVING count(DISTINCT sort_key) > 1 ORDER BY n DESC, p LIMIT 1`,
    );
    expect(shared).toBeDefined();
    const phone = or(
      { field: 'mobile_phone', op: 'in', value: [String(shared!.p)] },
      { field: 'direct_phone', op: 'in', value: [String(shared!.p)] },
    );
    expect(await page(engine, phone, columns)).toHaveLength(Number(shared!.n));
    // One eq leaf, a miss, an empty list.
    const [stored] = await engine.run(
      'SELECT work_email FROM contacts WHERE work_email IS NOT NULL ORDER BY hash(sort_key) LIMIT 1',
    );
    const eq: IRNode = { field: 'work_email', op: 'eq', value: String(stored!.work_email) };
    expect(await page(engine, eq, columns)).toEqual(await fromColumns(engine, eq, columns, 5000));
    expect(await page(engine, eq, columns)).toHaveLength(1);
    expect(await page(engine, { field: 'work_email', op: 'in', value: ['nobody@nowhere.example'] }, columns)).toEqual(
      [],
    );
    expect(await page(engine, { field: 'work_email', op: 'in', value: [] }, columns)).toEqual([]);
    // Odd strings are values, never SQL or JSON syntax; a list over 1,000 values (another DuckDB form).
    const odd = [`a'b"c\\]},{`, 'ÿ名前@例え.jp', '😀@x.io', 'x'.repeat(10_000), '', ' ', 'null', '[]', '0'];
    const emails = (
      await engine.run('SELECT work_email FROM contacts WHERE work_email IS NOT NULL ORDER BY sort_key LIMIT 1001')
    ).map((r) => String(r.work_email));
    const wide: IRNode = or(
      { field: 'work_email', op: 'in', value: [...odd, ...emails] },
      { field: 'network_slug', op: 'in', value: odd },
    );
    const answered = await page(engine, wide, columns);
    expect(answered).toHaveLength(1001);
    expect(answered).toEqual(await fromColumns(engine, wide, columns, 5000));
    // Field names as the compiler takes them (any case).
    const upper: IRNode = { field: 'Work_Email', op: 'in', value: emails.slice(0, 3) };
    expect(await page(engine, upper, columns)).toEqual(await fromColumns(engine, upper, columns, 5000));
  });

  it('is what answers card-only reads, and the release answers the rest', async () => {
    const where = await lookupWhere();
    const target = (await page(engine, where, columns))[0]!;
    // Change one card only: a read served by the store shows the change, one served by the release does not.
    const e = await open(
      copyWithStore(
        `UPDATE cards SET card = json_set(card, '$[${CONTACT_CARD_COLUMNS.indexOf('name')}]', 'Changed In Store') ` +
          `WHERE sort_key = ?`,
        Number(target.sort_key),
      ),
    );
    expect((await page(e, where, columns))[0]).toEqual({ ...target, name: 'Changed In Store' });
    expect((await page(e, where, [...columns, 'headline']))[0]).toMatchObject({ id: target.id, name: target.name });
    // Later pages of a search are never point reads.
    const later = await e.query('contact', where, {
      page: { columns, afterSortKey: 0, limit: 5000, budgetMs: 10_000 },
    });
    expect(later.rows[0]).toMatchObject({ id: target.id, name: target.name });
  });

  it('answers the family B enrichments from the cards: identifiers by key, employers from the index', async () => {
    const where = await lookupWhere();
    const target = (await page(engine, where, familyB)).find((r) => typeof r.company_domain === 'string')!;
    expect(target.first_name).toEqual(expect.any(String));
    const employees = employeesWhere([String(target.company_domain)], [])!;
    // The card alone changes: the family B reads show it, a read of a column the card lacks does not.
    const e = await open(
      copyWithStore(
        `UPDATE cards SET card = json_set(card, '$[${CONTACT_CARD_COLUMNS.indexOf('first_name')}]', 'Carded') ` +
          `WHERE sort_key = ?`,
        Number(target.sort_key),
      ),
    );
    expect((await page(e, where, familyB)).find((r) => r.id === target.id)).toEqual({
      ...target,
      first_name: 'Carded',
    });
    expect((await page(e, employees, FROM_PERSON_COLUMNS)).find((r) => r.id === target.id)).toMatchObject({
      first_name: 'Carded',
    });
    expect((await page(e, where, [...familyB, 'headline'])).find((r) => r.id === target.id)).toMatchObject({
      first_name: target.first_name,
    });
    // Without the store (or its cards) both come from the columns, with the same answers.
    const none = await openDuckDBEngine({ dataDir, poolSize: 2, threads: 1, pointStore: false });
    opened.push(none);
    expect((await none.health()).pointReads).toEqual({ ok: false, note: 'point store disabled' });
    expect(await page(none, where, familyB)).toEqual(await page(engine, where, familyB));
    expect(await page(none, employees, FROM_PERSON_COLUMNS)).toEqual(
      await page(engine, employees, FROM_PERSON_COLUMNS),
    );
    expect(await page(engine, where, familyB)).toEqual(await fromColumns(engine, where, familyB, 5000));
  });

  it('a store of the previous layout (no names on its cards) serves what its cards hold; the rest reads the columns', async () => {
    const { dir, points } = copy();
    const [first] = await engine.run(
      'SELECT sort_key, work_email, company_domain FROM contacts WHERE work_email IS NOT NULL AND company_domain IS ' +
        'NOT NULL ORDER BY sort_key LIMIT 1',
    );
    const key = Number(first!.sort_key);
    // Rewritten as a build before the names joined the cards wrote it: cards and the layout in meta without them.
    const before = CONTACT_CARD_COLUMNS.filter((c) => !nameColumns.includes(c));
    const db = new Database(points);
    const cards = db.prepare('SELECT sort_key, card FROM cards').all() as { sort_key: number; card: string }[];
    const rewrite = db.prepare('UPDATE cards SET card = ? WHERE sort_key = ?');
    db.transaction(() => {
      for (const c of cards) {
        const row = decodeCards([c.card], CONTACT_CARD_COLUMNS, CONTACT_CARD_COLUMNS)[0]!;
        // One name changed in the store only, to see which reads it serves.
        if (c.sort_key === key) row.name = 'Old Card';
        rewrite.run(JSON.stringify(before.map((k) => row[k] ?? null)), c.sort_key);
      }
      db.prepare("UPDATE meta SET value = ? WHERE key = 'card_columns'").run(JSON.stringify(before));
    })();
    db.close();
    const e = await open(dir);
    expect((await e.health()).pointReads).toEqual({ ok: true });
    const one: IRNode = { field: 'work_email', op: 'in', value: [String(first!.work_email)] };
    expect((await page(e, one, columns))[0]).toMatchObject({ name: 'Old Card' });
    const where = await lookupWhere();
    const employees = employeesWhere([String(first!.company_domain)], [])!;
    // A point read whose columns the cards do not all hold reads them all from the columns.
    const got = await page(e, or(where, one), familyB);
    expect(got.find((r) => r.sort_key === key)).toMatchObject({ name: expect.not.stringMatching('Old Card') });
    expect(got).toEqual(await page(engine, or(where, one), familyB));
    // An index page (from-person's employees) takes the columns the cards hold from them (the changed name shows) and
    // only the names they lack from the columns, row for row.
    const fromCards = (await page(engine, employees, FROM_PERSON_COLUMNS)).map((r) =>
      r.sort_key === key ? { ...r, name: 'Old Card' } : r,
    );
    expect(fromCards.some((r) => r.name === 'Old Card')).toBe(true);
    expect(await page(e, employees, FROM_PERSON_COLUMNS)).toEqual(fromCards);
  });

  it(
    'a release without its point store, or with another release or incomplete store, answers the same from its ' +
      'columns',
    async () => {
      const where = await lookupWhere();
      const expected = await page(engine, where, columns);

      const cases: [string | null, RegExp][] = [
        [null, /no point store/],
        [
          "UPDATE meta SET value = 'r20200101T000000-zzzz' WHERE key = 'release_id'",
          /belongs to release r20200101T000000-zzzz/,
        ],
        // A store missing cards (damaged outside the loader) would answer misses: it is refused at open.
        [
          'DELETE FROM cards WHERE sort_key = (SELECT max(sort_key) FROM cards)',
          /holds cards up to 1499 of 1500 contacts/,
        ],
      ];
      for (const [sql, note] of cases) {
        const e = await open(copyWithStore(sql));
        expect(await page(e, where, columns)).toEqual(expected);
        expect((await e.health()).pointReads).toEqual({ ok: false, note: expect.stringMatching(note) });
      }
    },
  );

  /**
   * Damages the store of a copy under an engine that opened it (every page after the first two overwritten: schema and
   * meta stay readable, keys and cards do not), then reads `where`: the same answer as the intact release, twice, and
   * the store is no longer used.
   */
  async function readsThroughDamage(where: IRNode, cols: readonly string[]): Promise<void> {
    const { dir, points } = copy();
    const expected = await page(engine, where, cols);
    expect(expected.length).toBeGreaterThan(0);
    const e = await open(dir);
    expect((await e.health()).pointReads).toEqual({ ok: true });
    const fd = openSync(points, 'r+');
    const junk = Buffer.alloc(statSync(points).size - 8192, 0xa5);
    writeSync(fd, junk, 0, junk.length, 8192);
    closeSync(fd);
    expect(await page(e, where, cols)).toEqual(expected);
    expect((await e.health()).pointReads).toEqual({
      ok: false,
      note: expect.stringMatching(/point store failed, point reads use the release/),
    });
    expect(await page(e, where, cols)).toEqual(expected);
  }

  it('a store damaged under a running server stops being used; reads keep their answers', async () => {
    await readsThroughDamage(await lookupWhere(), columns);
  });

  it('an index page whose card read fails takes those columns from the release and stops using the store', async () => {
    const first = (
      await engine.run('SELECT company_domain FROM contacts WHERE company_domain IS NOT NULL LIMIT 1')
    )[0]!;
    // The page's card read (from-person's employees: card columns plus names the cards lack) is the first to fail.
    await readsThroughDamage(employeesWhere([String(first.company_domain)], [])!, FROM_PERSON_COLUMNS);
  });

  it('writes every card as the JSON object of any card columns, equal to what decodeCards reads', () => {
    const db = new Database(pointStoreFile(releaseFile(dataDir, releaseId)), { readonly: true });
    try {
      const cards = (db.prepare('SELECT card FROM cards ORDER BY sort_key').pluck().all() as string[]).slice(0, 1500);
      const sets = [
        DEFAULT_CONTACT_COLUMNS,
        CONTACT_CARD_COLUMNS,
        // Any order, a column twice, sort_key asked for (left out), one the layout lacks (null).
        ['work_email', 'company_industries', 'id', 'has_phone', 'work_email', 'sort_key', 'no_such_column'],
      ];
      for (const cols of sets) {
        const decoded = decodeCards(cards, CONTACT_CARD_COLUMNS, cols).map(({ sort_key: _, ...row }) => row);
        const r = renderCards(Buffer.from(cards.join(',')), CONTACT_CARD_COLUMNS, cols, cards.length);
        const rendered = JSON.parse(`[${r.bytes.toString('utf8')}]`) as Record<string, unknown>[];
        expect(rendered).toEqual(decoded);
        // Members in the order asked, as JSON.stringify writes the decoded row.
        expect(rendered.map((row) => Object.keys(row))).toEqual(decoded.map((row) => Object.keys(row)));
        expect(r.sortKeys).toEqual(cards.map((_, i) => i + 1));
      }
      const none = renderCards(Buffer.from(cards.slice(0, 2).join(',')), CONTACT_CARD_COLUMNS, ['sort_key'], 2);
      expect(none.bytes.toString('utf8')).toBe('{},{}');
    } finally {
      db.close();
    }
  });

  it('answers an index page asked for as JSON from the cards: the rows the objects page holds, as UTF-8 bytes', async () => {
    const filters: IRNode[] = [
      { field: 'seniority', op: 'in', value: ['director', 'vp'] },
      { field: 'has_phone', op: 'eq', value: true },
    ];
    for (const where of filters)
      for (const cols of [DEFAULT_CONTACT_COLUMNS, ['name', 'id', 'company_industries']]) {
        const ask = (json: boolean) =>
          engine.query('contact', where, {
            page: { columns: [...cols], afterSortKey: 3, limit: 40, budgetMs: 10_000, ...(json ? { json } : {}) },
          });
        const [objects, texts] = await Promise.all([ask(false), ask(true)]);
        expect(objects.json).toBeUndefined();
        const page = texts.json!;
        expect(page.ends).toHaveLength(40);
        expect(texts.rows).toEqual(objects.rows.map((r) => ({ sort_key: r.sort_key })));
        // Each row's object is the bytes JSON.stringify writes of it, a comma between rows.
        const written = objects.rows.map(({ sort_key: _, ...row }) => JSON.stringify(row));
        expect(Buffer.from(page.bytes).toString('utf8')).toBe(written.join(','));
        expect(page.ends).toEqual(written.map((_, i) => Buffer.byteLength(written.slice(0, i + 1).join(','))));
      }
    // A column the cards lack (skills): rows as objects.
    const mixed = await engine.query('contact', filters[0]!, {
      page: { columns: ['id', 'skills'], afterSortKey: null, limit: 10, budgetMs: 10_000, json: true },
    });
    expect(mixed.json).toBeUndefined();
    expect(mixed.rows.map((r) => Object.keys(r).sort())).toEqual(mixed.rows.map(() => ['id', 'skills', 'sort_key']));
  });

  it('a JSON page meeting a card that is not JSON reads the page from the release and stops using the store', async () => {
    const where: IRNode = { field: 'seniority', op: 'in', value: ['director', 'vp'] };
    const ask = (e: DuckDBEngine, json: boolean) =>
      e.query('contact', where, {
        page: { columns: [...DEFAULT_CONTACT_COLUMNS], afterSortKey: null, limit: 20, budgetMs: 10_000, json },
      });
    const expected = (await ask(engine, false)).rows;
    const e = await open(
      copyWithStore(`UPDATE cards SET card = '["per_x", tru' WHERE sort_key = ?`, expected[3]!.sort_key),
    );
    const answer = await ask(e, true);
    expect(answer.json).toBeUndefined();
    expect(answer.rows).toEqual(expected);
    expect((await e.health()).pointReads).toEqual({
      ok: false,
      note: expect.stringMatching(/point store failed, point reads use the release: a card/),
    });
  });

  it('reads a layout only when it is a list of names holding sort_key', () => {
    expect(parseCardLayout(JSON.stringify(['id', 'sort_key']))).toEqual(['id', 'sort_key']);
    for (const bad of [undefined, null, 42, '', 'not json', '{}', '[]', '["id"]', '[1, "sort_key"]'])
      expect(parseCardLayout(bad)).toBeNull();
    expect(cardCovers(null, ['id'])).toBe(false);
    expect(cardCovers(['id', 'sort_key'], ['id'])).toBe(true);
    expect(cardCovers(['id', 'sort_key'], ['id', 'title'])).toBe(false);
  });
});
