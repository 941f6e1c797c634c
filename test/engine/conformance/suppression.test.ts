import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRelease } from '../../../loaders/load/index.js';
import { CONTACT_CARD_COLUMNS, type Entity } from '../../../src/domain/catalog/index.js';
import { sha256Of } from '../../../src/domain/optouts.js';
import type { IRNode } from '../../../src/domain/query/index.js';
import { parseCompanyFilter, parseContactFilter } from '../../../src/domain/query/index.js';
import { EMPTY_SUPPRESSION, type Suppression } from '../../../src/domain/suppression.js';
import { readCurrent } from '../../../src/engine/duckdb/release-store.js';
import type { SearchEngine } from '../../../src/engine/port.js';
import { splitIntoRowGroups } from '../../helpers/row-groups.js';
import type { Row } from '../../helpers/rows.js';
import { ENGINES } from './engines.js';
import { type ConformanceRelease, conformanceRelease } from './release.js';

/**
 * Engine conformance, suppression (opt-outs): an engine serving release R with a suppression list applied must
 * answer exactly as the same engine serving R', the same dump loaded with that list (the loader drops the people
 * it matches and recounts the companies' contacts): counts, first pages, cursor walks, offset pages, point reads,
 * exports with and without a per-company cap, export counts, distinct values, populated counts, and companies with
 * their contact counts (read and filtered on). Rows are compared without sort_key (R' numbers fewer contacts).
 * Then one person suppressed by each identifier type leaves the count one lower and their id absent, the empty list
 * brings them back, and an export running when a suppression lands leaves the person out of the batches after it.
 */

const SEED = 21;
const CONTACTS = 6000;
const AS_OF = new Date('2026-11-01T00:00:00Z');

let rel: ConformanceRelease;
let suppressedDir: string;
let contacts: Row[];
let list: Suppression;
/** Ids of the contacts the list matches, computed here from the stored rows. */
let suppressedIds: Set<string>;

/** Every 41st contact by one identifier type, cycling through the types, plus values no contact holds. */
function listOf(rows: Row[]): Suppression {
  const s = { ids: [] as string[], emails: [] as string[], phones: [] as string[], slugs: [] as string[] };
  const sha256: string[] = [];
  rows.forEach((r, i) => {
    switch (i % 41) {
      case 0:
        s.ids.push(r.id);
        break;
      case 7:
        if (r.work_email) s.emails.push(r.work_email);
        break;
      case 13:
        if (r.mobile_phone) s.phones.push(r.mobile_phone);
        break;
      case 14:
        if (r.direct_phone) s.phones.push(r.direct_phone);
        break;
      case 19:
        if (r.network_slug) s.slugs.push(r.network_slug);
        break;
      case 23:
        if (r.work_email) sha256.push(sha256Of(r.work_email));
        break;
      case 29:
        if (r.mobile_phone ?? r.direct_phone) sha256.push(sha256Of(r.mobile_phone ?? r.direct_phone));
        break;
    }
  });
  s.ids.push('per_nobody');
  s.emails.push('nobody@nowhere.example');
  s.phones.push('+15550000000');
  s.slugs.push('nobody-at-all');
  sha256.push(sha256Of('nobody@nowhere.example'));
  return { ...s, sha256 };
}

/** The contacts a list matches, by the documented rules, in plain JS. */
function matchedIds(rows: Row[], s: Suppression): Set<string> {
  const ids = new Set(s.ids);
  const emails = new Set(s.emails);
  const phones = new Set(s.phones);
  const slugs = new Set(s.slugs);
  const hashes = new Set(s.sha256);
  const hashed = (v: unknown) => typeof v === 'string' && hashes.has(sha256Of(v));
  return new Set(
    rows
      .filter(
        (r) =>
          ids.has(r.id) ||
          emails.has(r.work_email) ||
          phones.has(r.mobile_phone) ||
          phones.has(r.direct_phone) ||
          slugs.has(r.network_slug) ||
          hashed(r.work_email) ||
          hashed(r.mobile_phone) ||
          hashed(r.direct_phone),
      )
      .map((r) => r.id as string),
  );
}

beforeAll(async () => {
  rel = await conformanceRelease(CONTACTS, 600, SEED);
  contacts = rel.contacts;
  list = listOf(contacts);
  suppressedIds = matchedIds(contacts, list);
  // R': the same dumps, loaded with the list.
  suppressedDir = mkdtempSync(join(tmpdir(), 'cds-suppressed-'));
  const dumps = join(rel.dataDir, 'dumps', `${SEED}-${CONTACTS}`);
  const report = await loadRelease({
    dataDir: suppressedDir,
    peopleFile: join(dumps, 'people.jsonl'),
    companiesFile: join(dumps, 'companies.jsonl'),
    asOf: AS_OF,
    suppression: list,
  });
  expect(report.contacts).toBe(CONTACTS - suppressedIds.size);
  expect(report.suppressed.people).toBe(suppressedIds.size);
  await splitIntoRowGroups(suppressedDir, 2048);
}, 180_000);

afterAll(() => {
  rel.remove();
  rmSync(suppressedDir, { recursive: true, force: true });
});

it('the list matches people by every identifier type, and the loader counts them by the first that matched', async () => {
  expect(suppressedIds.size).toBeGreaterThan(400);
  const pointer = await readCurrent(suppressedDir);
  const counted = (pointer!.source as { suppressed: { people: number; byType: Record<string, number> } }).suppressed;
  expect(counted.people).toBe(suppressedIds.size);
  for (const type of ['id', 'email', 'phone', 'url', 'sha256']) expect(counted.byType[type]).toBeGreaterThan(20);
  expect(Object.values(counted.byType).reduce((a, b) => a + b, 0)).toBe(suppressedIds.size);
});

const withoutSortKey = (rows: Record<string, unknown>[]) => rows.map(({ sort_key: _, ...r }) => r);
const ids = (rows: Record<string, unknown>[]) => rows.map((r) => r.id as string);

const CONTACT_QUERIES: Array<{ name: string; ir: () => IRNode }> = [
  { name: 'everything', ir: () => ({ and: [] }) },
  { name: 'one country', ir: () => parseContactFilter({ filter: { countries: ['us'] } }).ir },
  {
    name: 'title phrase and seniority',
    ir: () => parseContactFilter({ filter: { title_query: ['manager'], seniority: ['manager', 'director'] } }).ir,
  },
  { name: 'exclusions', ir: () => parseContactFilter({ filter: { exclude_countries: ['us', 'gb'] } }).ir },
  { name: 'name contains two letters (scan)', ir: () => ({ field: 'name', op: 'contains', value: 'an' }) },
  { name: 'has a mobile phone', ir: () => ({ field: 'mobile_phone', op: 'exists' }) },
  {
    name: 'not (has work email and a signal)',
    ir: () => ({
      not: {
        and: [
          { field: 'has_work_email', op: 'eq', value: true },
          { field: 'signals', op: 'exists' },
        ],
      },
    }),
  },
];

const COMPANY_QUERIES: Array<{ name: string; ir: () => IRNode }> = [
  { name: 'every company', ir: () => ({ and: [] }) },
  { name: 'contact_count gte 10', ir: () => ({ field: 'contact_count', op: 'gte', value: 10 }) },
  { name: 'contact_count lt 8', ir: () => ({ field: 'contact_count', op: 'lt', value: 8 }) },
  { name: 'contact_count eq 9', ir: () => ({ field: 'contact_count', op: 'eq', value: 9 }) },
  { name: 'contact_count in 0, 7, 11', ir: () => ({ field: 'contact_count', op: 'in', value: [0, 7, 11] }) },
  { name: 'not contact_count gt 10', ir: () => ({ not: { field: 'contact_count', op: 'gt', value: 10 } }) },
  {
    name: 'US companies with more than 9 contacts',
    ir: () => ({
      and: [
        parseCompanyFilter({ filter: { hq_countries: ['us'] } }).ir,
        { field: 'contact_count', op: 'gt', value: 9 },
      ],
    }),
  },
];

describe.each(ENGINES.map((e) => [e.name, e] as const))('%s', (engineName, e) => {
  let r: SearchEngine;
  let rPrime: SearchEngine;
  beforeAll(async () => {
    r = await e.open(rel.dataDir);
    rPrime = await e.open(suppressedDir);
    const applied = await r.setSuppression(list);
    expect(applied.contacts).toBe(suppressedIds.size);
  }, 120_000);
  afterAll(async () => {
    await r.close();
    await rPrime.close();
  });

  /** A query on both engines: the rows of R (suppressed) and of R'. */
  const both = async (entity: Entity, where: IRNode, page: Parameters<SearchEngine['query']>[2]['page']) => {
    const req = { countBudgetMs: 30_000, ...(page ? { page } : {}) };
    return Promise.all([r.query(entity, where, req), rPrime.query(entity, where, req)]);
  };

  /** Every match in the stable order, by a cursor walk. */
  const walk = async (engine: SearchEngine, entity: Entity, where: IRNode, columns: string[]) => {
    const out: Record<string, unknown>[] = [];
    let after: number | null = null;
    for (;;) {
      const res = await engine.query(entity, where, {
        page: { columns, afterSortKey: after, limit: 97, budgetMs: 30_000 },
      });
      out.push(...res.rows);
      if (res.rows.length < 97) return out;
      after = Number(res.rows.at(-1)!.sort_key);
    }
  };

  it.each(CONTACT_QUERIES.map((q) => [q.name, q] as const))(
    'contacts, %s: count, first page, cursor walk and offset pages equal R"s',
    async (_name, q) => {
      const columns = ['id', 'name', 'work_email', 'mobile_phone', 'company_id'];
      const [a, b] = await both('contact', q.ir(), { columns, afterSortKey: null, limit: 50, budgetMs: 30_000 });
      expect(a.count).toBe(b.count);
      expect(withoutSortKey(a.rows)).toEqual(withoutSortKey(b.rows));
      expect(ids(a.rows).some((id) => suppressedIds.has(id))).toBe(false);
      const walked = await walk(r, 'contact', q.ir(), ['id', 'name']);
      expect(ids(walked)).toEqual(ids(await walk(rPrime, 'contact', q.ir(), ['id', 'name'])));
      expect(walked.length).toBe(a.count);
      for (const offset of [0, 100, 777, Math.max(0, (b.count ?? 0) - 10)]) {
        const page = { columns: ['id'], afterSortKey: null, limit: 40, budgetMs: 30_000, offset };
        const [x, y] = await both('contact', q.ir(), page);
        expect(ids(x.rows)).toEqual(ids(y.rows));
      }
    },
  );

  it('point reads (enrichment, lookups) by every lookup column answer R"s rows, card columns and others', async () => {
    const sample = contacts.filter((_, i) => i % 17 === 0 || i % 41 === 7 || i % 41 === 13).slice(0, 400);
    const values = (c: string) => [
      ...new Set(sample.map((x) => x[c]).filter((v): v is string => typeof v === 'string')),
    ];
    const where: IRNode = {
      or: ['work_email', 'mobile_phone', 'direct_phone', 'network_slug'].map((field) => ({
        field,
        op: 'in' as const,
        value: values(field),
      })),
    };
    for (const columns of [CONTACT_CARD_COLUMNS.filter((c) => c !== 'sort_key'), ['id', 'skills', 'headline']]) {
      for (const limit of [10, 1000]) {
        const [a, b] = await both('contact', where, { columns, afterSortKey: null, limit, budgetMs: 30_000 });
        expect(a.rows.length).toBeGreaterThan(5);
        expect(withoutSortKey(a.rows)).toEqual(withoutSortKey(b.rows));
      }
    }
    // One suppressed person's email alone: absent.
    const gone = contacts.find((x) => suppressedIds.has(x.id) && x.work_email)!;
    const [a] = await both(
      'contact',
      { field: 'work_email', op: 'eq', value: gone.work_email },
      {
        columns: ['id'],
        afterSortKey: null,
        limit: 10,
        budgetMs: 30_000,
      },
    );
    expect(ids(a.rows)).not.toContain(gone.id);
  });

  it.each(COMPANY_QUERIES.map((q) => [q.name, q] as const))(
    'companies, %s: count and rows with their contact counts equal R"s',
    async (_name, q) => {
      const columns = ['id', 'name', 'contact_count'];
      const [a, b] = await both('company', q.ir(), { columns, afterSortKey: null, limit: 1000, budgetMs: 30_000 });
      expect(a.count).toBe(b.count);
      expect(a.rows).toEqual(b.rows);
      expect(await walk(r, 'company', q.ir(), columns)).toEqual(await walk(rPrime, 'company', q.ir(), columns));
    },
  );

  it('a company lookup by domain answers R"s contact counts', async () => {
    const domains = contacts.filter((x) => suppressedIds.has(x.id) && x.company_domain).map((x) => x.company_domain);
    const where: IRNode = { field: 'domain', op: 'in', value: [...new Set(domains)].slice(0, 50) };
    const columns = ['id', 'domain', 'contact_count'];
    const [a, b] = await both('company', where, { columns, afterSortKey: null, limit: 100, budgetMs: 30_000 });
    expect(a.rows.length).toBeGreaterThan(10);
    expect(a.rows).toEqual(b.rows);
  });

  it.each([
    ['no cap', null],
    ['two per company', 2],
  ] as const)('exports (%s) and export counts equal R"s', async (_name, cap) => {
    const where = parseContactFilter({ filter: { exclude_countries: ['gb'] } }).ir;
    const [a, b] = await Promise.all(
      [r, rPrime].map((engine) => engine.exportCount('contact', where, { maxPerCompany: cap, budgetMs: 30_000 })),
    );
    expect([a!.matches, a!.capped]).toEqual([b!.matches, b!.capped]);
    const tag = engineName.replace(/\W+/g, '-');
    const files = [join(rel.dataDir, `x-${tag}-${cap}.csv`), join(suppressedDir, `x-${tag}-${cap}.csv`)];
    const columns = ['id', 'name', 'work_email', 'mobile_phone', 'company_domain'].map((c) => ({ name: c, header: c }));
    const [x, y] = await Promise.all(
      [r, rPrime].map((engine, i) =>
        engine.exportCsv('contact', where, {
          columns,
          maxRows: 1_000_000,
          maxPerCompany: cap,
          file: files[i]!,
          batchRows: 700,
          budgetMs: 30_000,
        }),
      ),
    );
    expect(x!.rows).toBe(a!.capped);
    expect(x!.rows).toBe(y!.rows);
    expect(readFileSync(files[0]!, 'utf8')).toBe(readFileSync(files[1]!, 'utf8'));
    for (const f of files) rmSync(f);
  });

  it('distinct values and populated counts equal R"s', async () => {
    for (const [entity, column] of [
      ['contact', 'country'],
      ['contact', 'skills'],
      ['contact', 'seniority'],
      ['company', 'contact_count'],
      ['company', 'hq_country'],
    ] as const) {
      expect(await r.distinctValues(entity, column, null, 500)).toEqual(
        await rPrime.distinctValues(entity, column, null, 500),
      );
    }
    expect(await r.distinctValues('company', 'contact_count', '1', 5)).toEqual(
      await rPrime.distinctValues('company', 'contact_count', '1', 5),
    );
    expect(await r.populatedCounts('contact')).toEqual(await rPrime.populatedCounts('contact'));
    expect(await r.populatedCounts('company')).toEqual(await rPrime.populatedCounts('company'));
  });
});

describe.each(ENGINES.map((e) => [e.name, e] as const))('one person at a time, %s', (_engineName, e) => {
  let engine: SearchEngine;
  beforeAll(async () => {
    engine = await e.open(rel.dataDir);
  });
  afterAll(() => engine.close());

  /**
   * A contact whose value of `column` no contact holds in any column of its kind (both phones are phones), so
   * suppressing it takes exactly one person.
   */
  const unique = (column: string, from: number): Row => {
    const kind = column.endsWith('_phone') ? ['mobile_phone', 'direct_phone'] : [column];
    const seen = new Map<unknown, number>();
    for (const x of contacts) for (const c of kind) if (x[c]) seen.set(x[c], (seen.get(x[c]) ?? 0) + 1);
    return contacts.slice(from).find((x) => x[column] && seen.get(x[column]) === 1)!;
  };

  const count = async () => (await engine.query('contact', { and: [] }, { countBudgetMs: 30_000 })).count;
  const byId = async (id: string) =>
    ids(
      (
        await engine.query(
          'contact',
          { field: 'id', op: 'eq', value: id },
          { page: { columns: ['id'], afterSortKey: null, limit: 10, budgetMs: 30_000 } },
        )
      ).rows,
    );

  it.each([
    ['id', (x: Row) => ({ ...EMPTY_SUPPRESSION, ids: [x.id] }), 'id'],
    ['work email', (x: Row) => ({ ...EMPTY_SUPPRESSION, emails: [x.work_email] }), 'work_email'],
    ['mobile phone', (x: Row) => ({ ...EMPTY_SUPPRESSION, phones: [x.mobile_phone] }), 'mobile_phone'],
    ['direct phone', (x: Row) => ({ ...EMPTY_SUPPRESSION, phones: [x.direct_phone] }), 'direct_phone'],
    ['profile slug', (x: Row) => ({ ...EMPTY_SUPPRESSION, slugs: [x.network_slug] }), 'network_slug'],
    ['sha256 of the email', (x: Row) => ({ ...EMPTY_SUPPRESSION, sha256: [sha256Of(x.work_email)] }), 'work_email'],
    ['sha256 of a phone', (x: Row) => ({ ...EMPTY_SUPPRESSION, sha256: [sha256Of(x.mobile_phone)] }), 'mobile_phone'],
  ] as const)(
    'by %s: the count drops by one and the id answers absent; the empty list brings them back',
    async (_type, make, column) => {
      const person = unique(column, 1234);
      const all = await count();
      expect(await byId(person.id)).toEqual([person.id]);
      expect(await engine.setSuppression(make(person))).toEqual({ contacts: 1 });
      expect(await count()).toBe(all! - 1);
      expect(await byId(person.id)).toEqual([]);
      const lookup = await engine.query(
        'contact',
        { field: column, op: 'eq', value: person[column] },
        { page: { columns: ['id'], afterSortKey: null, limit: 10, budgetMs: 30_000 } },
      );
      expect(ids(lookup.rows)).toEqual([]);
      expect(await engine.setSuppression(EMPTY_SUPPRESSION)).toEqual({ contacts: 0 });
      expect(await count()).toBe(all);
      expect(await byId(person.id)).toEqual([person.id]);
    },
  );

  it('an export running when a suppression lands leaves the person out of the batches written after it', async () => {
    const file = join(rel.dataDir, `running-${_engineName.replace(/\W+/g, '-')}.csv`);
    const late = contacts[4321]!;
    const early = contacts[10]!;
    const written: number[] = [];
    const res = await engine.exportCsv(
      'contact',
      { and: [] },
      {
        columns: [{ name: 'id', header: 'id' }],
        maxRows: 1_000_000,
        maxPerCompany: null,
        file,
        batchRows: 500,
        budgetMs: 30_000,
        onBatch: async (rows) => {
          written.push(rows);
          // After the first batch: one person already written, one not yet.
          if (written.length === 1) await engine.setSuppression({ ...EMPTY_SUPPRESSION, ids: [late.id, early.id] });
        },
      },
    );
    await engine.setSuppression(EMPTY_SUPPRESSION);
    // Text cells are always quoted.
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\r\n')
      .slice(1)
      .map((l) => l.replace(/^"|"$/g, ''));
    rmSync(file);
    expect(res.rows).toBe(CONTACTS - 1);
    expect(lines.length).toBe(res.rows);
    expect(lines).toContain(early.id);
    expect(lines).not.toContain(late.id);
    expect(lines).toEqual(contacts.map((x) => x.id).filter((id) => id !== late.id));
  });
});
