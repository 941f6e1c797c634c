import { type ColumnDef, type Entity, findColumn } from '../../../domain/catalog/index.js';
import { type IRNode, isLeaf, type Leaf, leafValues, type Scalar } from '../../../domain/query/ir.js';
import { lowerText } from '../../../domain/text/lower.js';
import { wordsKey } from '../../../domain/text/words.js';
import { andInto, andNotInto, type Bitset, countBits, emptyBitset, orInto } from './bitset.js';
import { type ColumnHeader, isOrdered, NGRAM_MAX, type Term, type TermsHeader } from './format.js';
import { type EntityIndex, findTerm, lowerBound, upperBound } from './reader.js';

/** How a query is answered from the index: a function computing its rows, or null when a leaf needs the scan. */
export type BitsetPlan = () => Promise<Bitset>;

/**
 * Keeps the rows among `candidates` that match a leaf exactly (the release's columns decide), or answers null when
 * there are too many candidates to check; the query then goes to the scan (IndexCannotAnswer).
 */
export type Verify = (leaf: Leaf, candidates: Bitset) => Promise<Bitset | null>;

/** Thrown while a plan runs when a leaf's candidates are too many to verify: the caller scans instead. */
export class IndexCannotAnswer extends Error {}

export interface PlanContext {
  ix: EntityIndex;
  entity: Entity;
  verify: Verify;
  /**
   * A leaf's rows as the engine reads them when the stored column does not hold the value a read must see (a
   * company's contact_count under a suppression): given the rows of the stored values, the rows to use.
   */
  rewrite?: (leaf: Leaf, stored: Bitset) => Bitset;
  /** Candidates up to this many are verified even where a dictionary could answer exactly (default VERIFY_FEW). */
  verifyFew?: number;
}

/**
 * Dictionaries up to this size answer `contains` / `prefix` by testing each value: closed lists, and the columns the
 * catalog marks for substrings (at 10 M contacts about a million distinct names, tested in tens of milliseconds,
 * where the scan takes hundreds).
 */
const SCAN_DICTIONARY_MAX = 4_000_000;
const ASCII = /^[\x20-\x7e]*$/;

/**
 * Query IR -> bitset plan (ARCHITECTURE rule 2: the index compiles the IR like the SQL compiler does, with the
 * same semantics, domain/query/ir.ts). Null leaves are false and `not` is the complement within the rows, which
 * is what the SQL compiler's null-safe NOT gives. A leaf the index narrows but cannot answer alone (phrases of more
 * than NGRAM_MAX words, substrings longer than a trigram) gives candidates the columns verify. A leaf it cannot answer
 * at all (substring tests on large dictionaries without trigrams, columns without postings, values of another type)
 * makes the whole plan null, and the query goes to the columnar scan; test/engine/conformance compares both paths.
 */
export function planBitset(ctx: PlanContext, node: IRNode): BitsetPlan | null {
  const { ix } = ctx;
  if (isLeaf(node)) {
    const leaf = leafRows(ix, ctx.entity, node);
    if (leaf === null) return null;
    const seen = (b: Bitset): Bitset => (ctx.rewrite ? ctx.rewrite(node, b) : b);
    if (typeof leaf === 'function') return async () => seen(leaf());
    // A leaf answered as candidates: checked against the columns before anything combines with it (or, when they are
    // many and the dictionary can answer exactly, computed from it).
    const { candidates, exact: dictionary } = leaf;
    return async () => {
      const c = candidates();
      if (dictionary && countBits(c) > (ctx.verifyFew ?? VERIFY_FEW)) return seen(dictionary());
      const exact = await ctx.verify(node, c);
      if (!exact) throw new IndexCannotAnswer(`too many candidates for ${node.field} ${node.op}`);
      return seen(exact);
    };
  }
  if ('not' in node) {
    const child = planBitset(ctx, node.not);
    return child
      ? async () => {
          const b = await child();
          ix.complement(b);
          return b;
        }
      : null;
  }
  if ('or' in node) {
    const plans = node.or.map((c) => planBitset(ctx, c));
    if (plans.some((c) => c === null)) return null;
    return async () => {
      const acc = emptyBitset(ix.rows);
      for (const p of plans as BitsetPlan[]) orInto(acc, await p());
      return acc;
    };
  }
  // and: the negated children are subtracted (and-not) instead of being complemented and intersected.
  const kept = node.and.filter((c) => isLeaf(c) || !('not' in c)).map((c) => planBitset(ctx, c));
  const minus = node.and.flatMap((c) => (!isLeaf(c) && 'not' in c ? [planBitset(ctx, c.not)] : []));
  if (kept.some((c) => c === null) || minus.some((c) => c === null)) return null;
  return async () => {
    const [first, ...rest] = kept as BitsetPlan[];
    const acc = first ? await first() : ix.all();
    for (const p of rest) andInto(acc, await p());
    for (const p of minus as BitsetPlan[]) andNotInto(acc, await p());
    return acc;
  };
}

function termType(col: ColumnDef): 'string' | 'number' | 'boolean' {
  if (col.storage === 'BIGINT' || col.storage === 'DOUBLE') return 'number';
  return col.storage === 'BOOLEAN' ? 'boolean' : 'string';
}

/** Long value lists (500 company names, 1,000 domains) are looked up in a hash of the dictionary, built once. */
const HASHED_LOOKUPS_MIN = 32;
const hashedDictionaries = new WeakMap<TermsHeader, Map<Term, number>>();

function hashed(terms: TermsHeader): Map<Term, number> {
  let at = hashedDictionaries.get(terms);
  if (!at) {
    at = new Map(terms.values.map((v, i) => [v, i]));
    hashedDictionaries.set(terms, at);
  }
  return at;
}

const loweredDictionaries = new WeakMap<TermsHeader, string[]>();

/** A string dictionary's values lowercased as every engine lowercases (domain/text/lower.ts), computed once. */
function lowered(terms: TermsHeader): string[] {
  let out = loweredDictionaries.get(terms);
  if (!out) {
    out = terms.values.map((v) => lowerText(String(v)));
    loweredDictionaries.set(terms, out);
  }
  return out;
}

/**
 * Dictionary positions whose value passes a case-insensitive substring or prefix test (each distinct value tested
 * once, both sides lowercased by lowerText, which is DuckDB's lower() code point by code point), or null when the
 * dictionary is too large to test value by value.
 */
function scanDictionary(terms: TermsHeader, text: string, prefix: boolean): number[] | null {
  if (terms.values.length > SCAN_DICTIONARY_MAX) return null;
  const needle = lowerText(text);
  const values = lowered(terms);
  const hits: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const s = values[i]!;
    if (prefix ? s.startsWith(needle) : s.includes(needle)) hits.push(i);
  }
  return hits;
}

/**
 * A leaf's rows computed from postings, or candidates to verify, or null (scan). Candidates with `exact`: when there
 * are more than VERIFY_FEW of them, `exact` computes the rows from postings instead (testing a dictionary's values
 * costs about the same whatever it finds; verifying costs per candidate).
 */
type LeafPlan = (() => Bitset) | { candidates: () => Bitset; exact?: () => Bitset };

/**
 * Candidates up to this many are verified by the columns even where a dictionary could answer exactly: none. The
 * columns' check reads the column over the candidates' whole span (DuckDB evaluates the leaf in the scan, before
 * the join with the keys), about a scan's cost, where testing a dictionary's values costs milliseconds.
 */
const VERIFY_FEW = 0;

function leafRows(ix: EntityIndex, entity: Entity, leaf: Leaf): LeafPlan | null {
  const col = findColumn(entity, leaf.field, true);
  const head = ix.column(leaf.field);
  if (!col || !head) return null;
  const present = (): Bitset => ix.bitset(head.present);
  if (leaf.op === 'exists')
    return leaf.value === false
      ? () => {
          const b = present();
          ix.complement(b);
          return b;
        }
      : present;
  if (leaf.op === 'words') {
    const ngrams = head.ngrams;
    if (!ngrams) return null;
    const key = wordsKey(String(leafValues(leaf)[0] ?? ''));
    if (!key) return () => emptyBitset(ix.rows);
    const words = key.trim().split(' ');
    if (words.length <= NGRAM_MAX) {
      const at = findTerm(ngrams, words.join(' '));
      return () => ix.union(ngrams, at < 0 ? [] : [at]);
    }
    // The companion's distinct words keys, when indexed, answer the phrase exactly: a key holds it as whole words
    // exactly when it contains ' phrase ' (domain/text/words.ts), the test the SQL compiler makes on the column.
    const keys = col.words ? ix.column(col.words)?.terms : undefined;
    const exact =
      keys && keys.values.length <= SCAN_DICTIONARY_MAX
        ? () => ix.union(keys, scanDictionary(keys, ` ${words.join(' ')} `, false) ?? [])
        : undefined;
    return { ...longPhraseRows(ix, ngrams, words), ...(exact ? { exact } : {}) };
  }
  if (leaf.op === 'contains' && head.trigrams && col.storage === 'VARCHAR') {
    const v = leafValues(leaf);
    if (v.length === 1 && typeof v[0] === 'string') {
      const plan = substringRows(ix, head, v[0]);
      if (plan) return plan;
    }
  }
  const terms = head.terms;
  if (!terms || col.storage === 'JSON') return null;
  const list = col.storage === 'VARCHAR[]';
  const type = list ? 'string' : termType(col);
  const values = leafValues(leaf);
  if (!values.every((v) => typeof v === type)) return null;
  const positions = (vs: readonly Scalar[]): number[] => {
    if (vs.length <= HASHED_LOOKUPS_MIN) return vs.map((v) => findTerm(terms, v)).filter((i) => i >= 0);
    const at = hashed(terms);
    return vs.flatMap((v) => at.get(v) ?? []);
  };
  const union = (vs: readonly Scalar[]) => (): Bitset => ix.union(terms, positions(vs));
  // Rows that hold a value for neq / not_in: non-empty lists; non-null scalars (SQL `c <> v` is null on null).
  const base = list ? head.present : head.notnull;
  const without = (vs: readonly Scalar[]) => (): Bitset => {
    const b = ix.bitset(base);
    andNotInto(b, ix.union(terms, positions(vs)));
    return b;
  };
  switch (leaf.op) {
    case 'eq':
    case 'in':
      return union(values);
    case 'neq':
    case 'not_in':
      return without(values);
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      if (list || !isOrdered(col) || values.length !== 1) return null;
      const v = values[0] as Term;
      const [from, to] =
        leaf.op === 'gt'
          ? [upperBound(terms.values, v), terms.values.length]
          : leaf.op === 'gte'
            ? [lowerBound(terms.values, v), terms.values.length]
            : leaf.op === 'lt'
              ? [0, lowerBound(terms.values, v)]
              : [0, upperBound(terms.values, v)];
      return () => rangeRows(ix, head, terms, from, to);
    }
    case 'contains':
    case 'prefix': {
      if (type !== 'string' || values.length !== 1 || terms.values.length > SCAN_DICTIONARY_MAX) return null;
      // Tested when the plan runs, not while planning: a filter whose rows are kept (the result cache) is planned
      // again on every call, and testing a large dictionary (1.5 M employer names at 15 M contacts) took 30 ms.
      return () => ix.union(terms, scanDictionary(terms, String(values[0]), leaf.op === 'prefix') ?? []);
    }
  }
}

/**
 * A whole-word phrase of more than NGRAM_MAX words: the rows holding every run of NGRAM_MAX consecutive words of it
 * (the intersection of those n-grams' postings) are a superset of the rows holding the phrase, which the columns then
 * verify. A run no row holds means no row holds the phrase (an empty answer, exact).
 */
function longPhraseRows(ix: EntityIndex, ngrams: TermsHeader, words: readonly string[]): { candidates: () => Bitset } {
  const runs = [
    ...new Set(Array.from({ length: words.length - NGRAM_MAX + 1 }, (_, i) => words.slice(i, i + NGRAM_MAX).join(' '))),
  ];
  const at = runs.map((r) => findTerm(ngrams, r));
  return { candidates: () => intersect(ix, ngrams, at) };
}

/** The rows holding every one of the terms at these dictionary positions (none when a position is -1, absent). */
function intersect(ix: EntityIndex, terms: TermsHeader, at: readonly number[]): Bitset {
  if (at.length === 0 || at.some((i) => i < 0)) return emptyBitset(ix.rows);
  // The rarest posting first: the running intersection is smallest from the start.
  const order = [...at].sort((a, b) => terms.cnt[a]! - terms.cnt[b]!);
  const acc = ix.union(terms, [order[0]!]);
  for (const i of order.slice(1)) andInto(acc, ix.union(terms, [i]));
  return acc;
}

/**
 * `contains` on a column with trigram postings (catalog `substrings`): a needle of three characters is one posting;
 * a longer one is the intersection of its trigrams' postings, a superset the columns then verify; an empty needle
 * is every non-null row. Shorter needles and non-ASCII text (whose lowercasing the engines may not share) scan.
 */
function substringRows(ix: EntityIndex, head: ColumnHeader, text: string): LeafPlan | null {
  const trigrams = head.trigrams;
  if (!trigrams || !ASCII.test(text)) return null;
  const needle = lowerText(text);
  if (needle.length === 0) return () => ix.bitset(head.notnull);
  if (needle.length < 3) return null;
  const grams = [...new Set(Array.from({ length: needle.length - 2 }, (_, i) => needle.slice(i, i + 3)))];
  const at = grams.map((g) => findTerm(trigrams, g));
  const rows = (): Bitset => intersect(ix, trigrams, at);
  if (needle.length === 3) return rows;
  // The values' dictionary (catalog substrings columns hold one) answers many candidates exactly.
  const terms = head.terms;
  const hits = terms && terms.values.length <= SCAN_DICTIONARY_MAX ? () => scanDictionary(terms, text, false) : null;
  return hits ? { candidates: rows, exact: () => ix.union(terms!, hits() ?? []) } : { candidates: rows };
}

function* range(from: number, to: number): Iterable<number> {
  for (let i = from; i < to; i++) yield i;
}

const runningCounts = new WeakMap<TermsHeader, Float64Array>();

/** sums[i] = rows of the terms before dictionary position i. */
function sumsOf(terms: TermsHeader): Float64Array {
  let sums = runningCounts.get(terms);
  if (!sums) {
    sums = new Float64Array(terms.cnt.length + 1);
    for (let i = 0; i < terms.cnt.length; i++) sums[i + 1] = sums[i]! + terms.cnt[i]!;
    runningCounts.set(terms, sums);
  }
  return sums;
}

/** Rows whose term sits at a dictionary position below `x`: the nearest range block prefix, corrected term by term. */
function below(ix: EntityIndex, head: ColumnHeader, terms: TermsHeader, x: number): Bitset {
  const n = terms.values.length;
  if (x <= 0) return emptyBitset(ix.rows);
  if (x >= n) return ix.bitset(head.notnull);
  const r = head.ranges;
  if (!r) return ix.union(terms, range(0, x));
  // Blocks around x: the prefix at or below it (plus the terms up to x), or the one above it (less the terms from x).
  let j = -1;
  while (j + 1 < r.at.length && r.at[j + 1]! <= x) j++;
  const lo = j < 0 ? 0 : r.at[j]!;
  const hi = j + 1 < r.at.length ? r.at[j + 1]! : n;
  const sums = sumsOf(terms);
  if (sums[x]! - sums[lo]! <= sums[hi]! - sums[x]!) {
    const b = j < 0 ? emptyBitset(ix.rows) : ix.bitset(r.prefix[j]!);
    for (let i = lo; i < x; i++) ix.orPosting(b, [terms.off[i]!, terms.cnt[i]!]);
    return b;
  }
  const b = hi === n ? ix.bitset(head.notnull) : ix.bitset(r.prefix[j + 1]!);
  andNotInto(b, ix.union(terms, range(x, hi)));
  return b;
}

/** Rows whose term sits at dictionary positions [from, to). */
function rangeRows(ix: EntityIndex, head: ColumnHeader, terms: TermsHeader, from: number, to: number): Bitset {
  if (from >= to) return emptyBitset(ix.rows);
  const b = below(ix, head, terms, to);
  if (from > 0) andNotInto(b, below(ix, head, terms, from));
  return b;
}
