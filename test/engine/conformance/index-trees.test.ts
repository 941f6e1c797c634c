import { copyFileSync, existsSync, renameSync, rmSync, truncateSync } from 'node:fs';
import fc from 'fast-check';
import { columnsOf, type Entity, findColumn } from '../../../src/domain/catalog/index.js';
import type { IRNode, LeafOp, Scalar } from '../../../src/domain/query/ir.js';
import { EMPTY_SUPPRESSION, type Suppression } from '../../../src/domain/suppression.js';
import { countBits, emptyBitset, setRowsFrom } from '../../../src/engine/duckdb/bitmap-index/bitset.js';
import { indexFile, isOrdered, termColumns } from '../../../src/engine/duckdb/bitmap-index/format.js';
import { IndexCannotAnswer, planBitset, type Verify } from '../../../src/engine/duckdb/bitmap-index/plan.js';
import { BitmapIndex } from '../../../src/engine/duckdb/bitmap-index/reader.js';
import { type DuckDBEngine, openDuckDBEngine } from '../../../src/engine/duckdb/duckdb-engine.js';
import { currentRelease, releaseFile } from '../../../src/engine/duckdb/release-store.js';
import type { Row } from '../../helpers/rows.js';
import { matches } from './ir-eval.js';
import { type ConformanceRelease, conformanceRelease } from './release.js';

/**
 * The index path against the scan path and the IR's semantics: random trees (and / or / not, 1-4 levels) of the
 * leaves the index answers, over both entities. For each tree the index must plan it (no silent fallback), its
 * rows must be exactly the rows the JS semantics select, and the engine must answer the same count and pages as
 * the columnar scan.
 */

let rel: ConformanceRelease;
let index: BitmapIndex;
let withIndex: DuckDBEngine;
let scan: DuckDBEngine;

/** The releases the trees run on: a full load, and the same after a delta load patched it. Opened once each. */
interface Opened {
  rel: ConformanceRelease;
  index: BitmapIndex;
  withIndex: DuckDBEngine;
  scan: DuckDBEngine;
}
const opened = new Map<string, Opened>();
async function use(deltas: readonly number[]): Promise<void> {
  const key = deltas.join(',');
  let o = opened.get(key);
  if (!o) {
    const r = await conformanceRelease(3000, 300, 11, { deltas });
    const cur = currentRelease(r.dataDir)!;
    const ix = BitmapIndex.open(indexFile(releaseFile(r.dataDir, cur.id)), cur);
    if (!ix.index) throw new Error(ix.reason);
    o = {
      rel: r,
      index: ix.index,
      withIndex: await openDuckDBEngine({ dataDir: r.dataDir, poolSize: 2, threads: 2, pointReaders: 1, index: true }),
      scan: await openDuckDBEngine({ dataDir: r.dataDir, poolSize: 2, threads: 2, pointReaders: 1, index: false }),
    };
    opened.set(key, o);
  }
  ({ rel, index, withIndex, scan } = o);
}
afterAll(async () => {
  for (const o of opened.values()) {
    o.index.close();
    await o.withIndex.close();
    await o.scan.close();
    o.rel.remove();
  }
});

const noVerify: Verify = async () => {
  throw new Error('no leaf of this test needs verification');
};

const rowsOf = (entity: Entity): Row[] => (entity === 'contact' ? rel.contacts : rel.companies);

/** Present values of a column (list elements for lists), a few of the most frequent and a few rare ones. */
function sample(entity: Entity, column: string): Scalar[] {
  const counts = new Map<string, { v: Scalar; n: number }>();
  for (const r of rowsOf(entity)) {
    const v = r[column];
    for (const x of Array.isArray(v) ? v : [v]) {
      if (x === null || x === undefined) continue;
      const k = JSON.stringify(x);
      const e = counts.get(k) ?? { v: x as Scalar, n: 0 };
      e.n++;
      counts.set(k, e);
    }
  }
  const sorted = [...counts.values()].sort((a, b) => b.n - a.n).map((e) => e.v);
  return [...sorted.slice(0, 6), ...sorted.slice(-3)];
}

function deciles(entity: Entity, column: string): Scalar[] {
  const vals = rowsOf(entity)
    .map((r) => r[column] as Scalar | null)
    .filter((v): v is Scalar => v !== null && v !== undefined)
    .sort((a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : 1));
  return vals.length === 0 ? [] : Array.from({ length: 9 }, (_, i) => vals[Math.floor(((i + 1) * vals.length) / 10)]!);
}

/** Leaves the index answers on one column, with values from the data (and one value absent from it). */
function leafArb(entity: Entity): fc.Arbitrary<IRNode> {
  const cols = termColumns(entity).filter((c) => sample(entity, c.name).length > 0);
  const leaves: IRNode[] = [];
  for (const col of cols) {
    const vals = sample(entity, col.name);
    const absent: Scalar = col.storage === 'BIGINT' || col.storage === 'DOUBLE' ? -987654 : 'zz-absent';
    const ops: LeafOp[] = ['eq', 'neq', 'in', 'not_in'];
    if (isOrdered(col)) ops.push('gt', 'gte', 'lt', 'lte');
    const picks: Scalar[] = [...vals.slice(0, 3), vals[vals.length - 1]!, absent];
    // Ordered columns: values at each tenth of the sorted rows too, so ranges start and end inside range blocks.
    if (isOrdered(col)) picks.push(...deciles(entity, col.name));
    for (const op of ops) {
      for (const v of picks) {
        if (col.storage === 'BOOLEAN' && v === absent) continue;
        const value: Scalar | Scalar[] = op === 'in' || op === 'not_in' ? [v, ...vals.slice(3, 5)] : v;
        leaves.push({ field: col.name, op, value });
      }
    }
  }
  for (const col of columnsOf(entity)) {
    if (col.name === 'sort_key') continue;
    if (col.substrings) {
      // Substrings of names, employers and locations, three to five characters (one trigram, or candidates the
      // columns verify), in any case.
      for (const r of rowsOf(entity).slice(0, 30)) {
        const name = String(r[col.name]);
        for (const len of [3, 4, 5]) {
          const needle = name.slice(1, 1 + len);
          if (needle.length === len && /^[\x20-\x7e]+$/.test(needle))
            leaves.push({ field: col.name, op: 'contains', value: needle.toUpperCase() });
        }
      }
    }
    leaves.push({ field: col.name, op: 'exists', value: true }, { field: col.name, op: 'exists', value: false });
    if (col.words) {
      const titles = rowsOf(entity)
        .map((r) => r[col.name])
        .filter((t): t is string => typeof t === 'string')
        .slice(0, 40);
      for (const t of titles) {
        const words = t.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
        // Up to five words: phrases longer than a triple are the candidates of their triples, verified.
        for (let n = 1; n <= Math.min(5, words.length); n++)
          leaves.push({ field: col.name, op: 'words', value: words.slice(0, n).join(' ') });
        // Every triple of these is often held while the phrase is not: the verification must drop those rows.
        if (words.length >= 4)
          leaves.push({ field: col.name, op: 'words', value: [...words.slice(1, 4), words[1]].join(' ') });
      }
    }
  }
  return fc.constantFrom(...leaves);
}

function treeArb(entity: Entity): fc.Arbitrary<IRNode> {
  const { tree } = fc.letrec<{ tree: IRNode }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leafArb(entity),
      fc.array(tie('tree'), { minLength: 0, maxLength: 4 }).map((and) => ({ and })),
      fc.array(tie('tree'), { minLength: 0, maxLength: 4 }).map((or) => ({ or })),
      tie('tree').map((n) => ({ not: n })),
    ),
  }));
  return tree;
}

describe.each([
  ['a full load', []],
  ['a release two delta loads patched', [0.1, 0.07]],
] as const)('on %s', (_release, deltas) => {
  beforeAll(() => use(deltas), 180_000);

  it('has positions without a row exactly when a delta patched it', () => {
    const ix = index.entity('contact');
    const keys = rel.contacts.map((r) => r.sort_key);
    expect(ix.rows).toBe(Math.max(...keys));
    if (deltas.length === 0) expect(keys).toEqual(keys.map((_, i) => i + 1));
    else expect(keys.length).toBeLessThan(ix.rows);
    expect(countBits(ix.all())).toBe(rel.contacts.length);
  });

  it('answers as the IR semantics and the scan under a suppression list, cut company contact counts included', async () => {
    const list: Suppression = {
      ...EMPTY_SUPPRESSION,
      ids: rel.contacts.filter((_, i) => i % 17 === 3).map((r) => r.id),
    };
    const gone = new Set(list.ids);
    const cut = new Map<string, number>();
    for (const r of rel.contacts)
      if (gone.has(r.id) && r.company_id) cut.set(String(r.company_id), (cut.get(String(r.company_id)) ?? 0) + 1);
    const req = { countBudgetMs: 30_000, page: { columns: ['id'], limit: 20, budgetMs: 30_000, afterSortKey: null } };
    await withIndex.setSuppression(list);
    await scan.setSuppression(list);
    try {
      for (const tree of fc.sample(treeArb('contact'), { numRuns: 20, seed: 3 })) {
        const want = rel.contacts.filter((r) => !gone.has(r.id) && matches('contact', tree, r));
        const [a, b] = [await withIndex.query('contact', tree, req), await scan.query('contact', tree, req)];
        expect([a.count, b.count]).toEqual([want.length, want.length]);
        expect(a.rows.map((r) => r.id)).toEqual(want.slice(0, 20).map((r) => r.id));
        expect(b.rows.map((r) => r.id)).toEqual(want.slice(0, 20).map((r) => r.id));
      }
      for (const value of [0, 1, 2, 5, 12]) {
        const tree: IRNode = { field: 'contact_count', op: 'gte', value };
        const want = rel.companies.filter((c) => Number(c.contact_count) - (cut.get(String(c.id)) ?? 0) >= value);
        const [a, b] = [await withIndex.query('company', tree, req), await scan.query('company', tree, req)];
        expect([a.count, b.count]).toEqual([want.length, want.length]);
        expect(a.rows.map((r) => r.id)).toEqual(want.slice(0, 20).map((r) => r.id));
      }
    } finally {
      await withIndex.setSuppression(EMPTY_SUPPRESSION);
      await scan.setSuppression(EMPTY_SUPPRESSION);
    }
  }, 120_000);

  describe.each(['contact', 'company'] as const)('%s trees', (entity) => {
    it('are planned by the index and select exactly the rows the IR semantics select', async () => {
      const ix = index.entity(entity);
      // The oracle verifies candidates here, after checking that they hold every matching row.
      const verify: Verify = async (leaf, candidates) => {
        const exact = emptyBitset(ix.rows);
        for (const r of rowsOf(entity)) {
          if (!matches(entity, leaf, r)) continue;
          const row = r.sort_key - 1;
          expect((candidates[row >>> 5]! >>> (row & 31)) & 1).toBe(1);
          exact[row >>> 5]! |= 1 << (row & 31);
        }
        return exact;
      };
      await fc.assert(
        fc.asyncProperty(treeArb(entity), async (tree) => {
          const plan = planBitset({ ix, entity, verify }, tree);
          expect(plan).not.toBeNull();
          const bits = await plan!();
          const want = rowsOf(entity)
            .filter((r) => matches(entity, tree, r))
            .map((r) => r.sort_key - 1);
          expect(countBits(bits)).toBe(want.length);
          expect(setRowsFrom(bits, 0, 0, want.length + 1)).toEqual(want);
        }),
        { numRuns: 300, seed: 20261125 },
      );
    });

    it('answer counts, first pages, cursor pages and offset pages as the scan does', async () => {
      const trees = fc.sample(treeArb(entity), { numRuns: 60, seed: 7 });
      const problems: string[] = [];
      for (const tree of trees) {
        for (const page of [
          { afterSortKey: null, offset: 0 },
          { afterSortKey: Math.floor(rowsOf(entity).length / 3), offset: 0 },
          { afterSortKey: null, offset: 7 },
        ]) {
          const req = {
            countBudgetMs: 30_000,
            page: { columns: ['id', 'name'], limit: 13, budgetMs: 30_000, ...page },
          };
          const [a, b] = [await withIndex.query(entity, tree, req), await scan.query(entity, tree, req)];
          if (a.count !== b.count || JSON.stringify(a.rows) !== JSON.stringify(b.rows))
            problems.push(`${JSON.stringify(tree)} ${JSON.stringify(page)}: ${a.count} vs ${b.count}`);
        }
      }
      expect(problems).toEqual([]);
    }, 120_000);
  });
});

describe('what the index leaves to the scan', () => {
  beforeAll(() => use([]), 180_000);

  it('plans nothing it cannot answer exactly, and the engine still answers those from the columns', async () => {
    const ix = index.entity('contact');
    const scanned: IRNode[] = [
      { field: 'headline', op: 'contains', value: 'an' },
      { field: 'title', op: 'contains', value: 'tech' },
      { field: 'experience', op: 'contains', value: 'inc' },
      {
        and: [
          { field: 'country', op: 'in', value: ['us'] },
          { field: 'city', op: 'prefix', value: 'San' },
        ],
      },
    ];
    for (const tree of scanned) {
      expect(planBitset({ ix, entity: 'contact', verify: noVerify }, tree)).toBeNull();
      const want = rel.contacts.filter((r) => matches('contact', tree, r)).length;
      const got = await withIndex.query('contact', tree, { countBudgetMs: 30_000 });
      expect(got.count).toBe(want);
    }
  });

  it('plans long phrases and name substrings as verified candidates, other substrings from distinct values', async () => {
    const ix = index.entity('contact');
    const title = rel.contacts
      .map((r) =>
        String(r.title ?? '')
          .split(/[^\p{L}\p{N}]+/u)
          .filter(Boolean),
      )
      .find((w) => w.length >= 4)!;
    const location = rel.contacts.map((r) => r.location).find((l): l is string => typeof l === 'string')!;
    const company = rel.contacts.map((r) => r.company).find((c): c is string => typeof c === 'string')!;
    const name = String(rel.contacts[0]!.name);
    // [leaf, verifications expected, verifyFew]: answered from distinct values (title words keys, names, locations,
    // employers: no verification), or, with verifyFew above the candidates, candidates the columns verify (1).
    const leaves: Array<[IRNode, number, number?]> = [
      [{ field: 'title', op: 'words', value: title.slice(0, 4).join(' ') }, 0],
      [{ field: 'title', op: 'words', value: title.slice(0, 4).join(' ') }, 1, 1e9],
      [{ field: 'title', op: 'words', value: title.join(' ') }, 0],
      [{ field: 'title', op: 'words', value: title.join(' ') }, 1, 1e9],
      [{ field: 'title', op: 'words', value: 'head of sales and marketing' }, 1, 1e9],
      [{ field: 'name', op: 'contains', value: name.slice(0, 4) }, 0],
      [{ field: 'name', op: 'contains', value: name.slice(0, 4).toUpperCase() }, 1, 1e9],
      [{ field: 'name', op: 'contains', value: name.slice(1, 3) }, 0],
      [{ field: 'name', op: 'contains', value: 'Zoë' }, 0],
      [{ field: 'location', op: 'contains', value: location.slice(0, 5) }, 0],
      [{ field: 'location', op: 'contains', value: 'an' }, 0],
      [{ field: 'company', op: 'contains', value: company.slice(1, 5) }, 0],
    ];
    for (const [leaf, verifications, verifyFew] of leaves) {
      let verified = 0;
      const verify: Verify = async (l, candidates) => {
        verified++;
        const exact = emptyBitset(ix.rows);
        for (const r of rel.contacts) {
          if (!matches('contact', l, r)) continue;
          const row = r.sort_key - 1;
          expect((candidates[row >>> 5]! >>> (row & 31)) & 1).toBe(1);
          exact[row >>> 5]! |= 1 << (row & 31);
        }
        return exact;
      };
      const plan = planBitset(
        { ix, entity: 'contact', verify, ...(verifyFew === undefined ? {} : { verifyFew }) },
        leaf,
      );
      expect([leaf, plan === null]).toEqual([leaf, false]);
      const want = rel.contacts.filter((r) => matches('contact', leaf, r)).length;
      expect([leaf, countBits(await plan!())]).toEqual([leaf, want]);
      expect([leaf, verified]).toEqual([leaf, verifications]);
      expect((await withIndex.query('contact', leaf, { countBudgetMs: 30_000 })).count).toBe(want);
    }
  });

  it('has range blocks on the ordered columns with many values, which the trees above cross', () => {
    const head = index.entity('contact').column('company_employee_count');
    expect(head?.ranges?.at.length).toBeGreaterThan(8);
  });

  it('answers long value lists (looked up by hash) as the IR semantics say', async () => {
    const ix = index.entity('contact');
    for (const field of ['company_domain', 'company_name_norm', 'company_employee_count', 'skills']) {
      const present = [...new Set(rel.contacts.flatMap((r) => (Array.isArray(r[field]) ? r[field] : [r[field]])))]
        .filter((v) => v !== null && v !== undefined)
        .slice(0, 60) as Scalar[];
      const absent: Scalar = typeof present[0] === 'number' ? -5 : 'zz-absent';
      for (const op of ['in', 'not_in'] as const) {
        const leaf: IRNode = { field, op, value: [...present, absent] };
        const plan = planBitset({ ix, entity: 'contact', verify: noVerify }, leaf);
        expect(plan).not.toBeNull();
        expect(countBits(await plan!())).toBe(rel.contacts.filter((r) => matches('contact', leaf, r)).length);
      }
    }
  });

  it('gives up (IndexCannotAnswer, so the engine scans) when a verifier refuses too many candidates', async () => {
    const needle = String(rel.contacts[0]!.name).slice(0, 4);
    const plan = planBitset(
      { ix: index.entity('contact'), entity: 'contact', verify: async () => null, verifyFew: 1e9 },
      { field: 'name', op: 'contains', value: needle },
    );
    await expect(plan!()).rejects.toBeInstanceOf(IndexCannotAnswer);
  });

  it('answers contains and prefix on closed lists from the dictionary', async () => {
    const ix = index.entity('contact');
    for (const leaf of [
      { field: 'seniority', op: 'contains', value: 'EC' },
      { field: 'company_industries', op: 'prefix', value: 'soft' },
    ] as const) {
      const plan = planBitset({ ix, entity: 'contact', verify: noVerify }, leaf);
      expect(plan).not.toBeNull();
      expect(countBits(await plan!())).toBe(rel.contacts.filter((r) => matches('contact', leaf, r)).length);
    }
    expect(findColumn('contact', 'seniority')?.list).toBeDefined();
  });

  it('sets a damaged index aside (the scan answers, health says why) and takes it back once rebuilt', async () => {
    const cur = currentRelease(rel.dataDir)!;
    const file = indexFile(releaseFile(rel.dataDir, cur.id));
    copyFileSync(file, `${file}.good`);
    const engine = await openDuckDBEngine({
      dataDir: rel.dataDir,
      poolSize: 1,
      threads: 1,
      pointReaders: 1,
      pollMs: 50,
    });
    try {
      expect((await engine.health()).index).toEqual({ ok: true });
      // The header is read at open; the postings are read when a query needs them.
      truncateSync(file, 1024);
      const tree: IRNode = { field: 'skills', op: 'in', value: sample('contact', 'skills').slice(0, 2) as string[] };
      const want = rel.contacts.filter((r) => matches('contact', tree, r)).length;
      expect((await engine.query('contact', tree, { countBudgetMs: 30_000 })).count).toBe(want);
      const health = await engine.health();
      expect(health.index?.ok).toBe(false);
      expect(health.index?.note).toMatch(/index failed.*truncated/);
      expect((await engine.query('contact', tree, { countBudgetMs: 30_000 })).count).toBe(want);
      copyFileSync(`${file}.good`, file);
      const t0 = Date.now();
      while (!(await engine.health()).index?.ok && Date.now() - t0 < 3000) await new Promise((r) => setTimeout(r, 50));
      expect((await engine.health()).index).toEqual({ ok: true });
      expect((await engine.query('contact', tree, { countBudgetMs: 30_000 })).count).toBe(want);
    } finally {
      await engine.close();
      copyFileSync(`${file}.good`, file);
      rmSync(`${file}.good`);
    }
  });

  it('serves from the columns, with the same answers, when the release has no index', async () => {
    const cur = currentRelease(rel.dataDir)!;
    const file = indexFile(releaseFile(rel.dataDir, cur.id));
    const tree: IRNode = { field: 'country', op: 'in', value: sample('contact', 'country').slice(0, 2) as string[] };
    const before = await withIndex.query('contact', tree, { countBudgetMs: 30_000 });
    renameSync(file, `${file}.away`);
    try {
      const engine = await openDuckDBEngine({ dataDir: rel.dataDir, poolSize: 1, threads: 1, pointReaders: 1 });
      try {
        const health = await engine.health();
        expect(health.index?.ok).toBe(false);
        expect(health.index?.note).toMatch(/no index/);
        expect((await engine.query('contact', tree, { countBudgetMs: 30_000 })).count).toBe(before.count);
      } finally {
        await engine.close();
      }
    } finally {
      renameSync(`${file}.away`, file);
    }
    expect(existsSync(file)).toBe(true);
    expect((await withIndex.health()).index).toEqual({ ok: true });
  });
});
