import { type DuckDBConnection, INTEGER, VARCHAR } from '@duckdb/node-api';
import type { OptOutType } from '../../../domain/optouts.js';
import {
  SUPPRESSION_COLUMNS,
  SUPPRESSION_FIELD,
  SUPPRESSION_TYPES,
  type Suppression,
} from '../../../domain/suppression.js';
import { countBits, emptyBitset } from '../bitmap-index/bitset.js';
import { Params } from '../compile/params.js';
import { ident, TABLE } from '../schema.js';
import { readColumns, readIntsByKey, replaceTempTable } from './duck-io.js';
import { HashPrefixIndex } from './hash-index.js';
import { bitsetOf, bitValueOf, type CompanyCuts, type Suppressed } from './suppressed.js';

/** Up to this many new values (or keys) are bound as an IN list (answered from DuckDB's lookup indexes); more join. */
const IN_LIST_MAX = 256;

/** What the last resolution did (the bench reports it). */
export interface ResolveStats {
  entries: number;
  /** Entries not resolved against this release before (the others come from its cache). */
  resolved: number;
  contacts: number;
  /** Time to hash the release's emails and phones (the first list with sha256 entries), or null. */
  hashIndexMs: number | null;
  ms: number;
}

/** A value's matches: 0 for none, the sort key of the one contact holding it, or the sort keys of several. */
type Hit = number | number[];

/** Cached values beyond twice the list (plus this) are dropped, so a shrinking list does not keep them forever. */
const PRUNE_SLACK = 100_000;

/** The sort keys (ascending) of the rows set in a bitset, by calling `fn` for each. */
function forEachKey(bits: Int32Array, fn: (sortKey: number) => void): void {
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w]!;
    while (word !== 0) {
      const low = word & -word;
      fn(w * 32 + (31 - Math.clz32(low)) + 1);
      word ^= low;
    }
  }
}

/**
 * Resolves suppression lists against one release, on a connection of its own (never one of the pool's). The
 * matches of each value are kept per release, so a list costs only its values not seen before: a change of a few
 * opt-outs on a list of 100,000 looks those few up (DuckDB's lookup indexes) and rebuilds the bitsets. Many new
 * values are one join of their TEMP table with the release's identifier columns. Lists are resolved one at a time
 * (the release's `suppress` queues them).
 */
export class SuppressionResolver {
  private readonly hits: Record<OptOutType, Map<string, Hit>> = {
    id: new Map(),
    email: new Map(),
    phone: new Map(),
    url: new Map(),
    sha256: new Map(),
  };
  private employers: Promise<Employers> | null = null;
  private hashes: Promise<HashPrefixIndex> | null = null;
  private hashIndexMs: number | null = null;

  constructor(
    private readonly conn: DuckDBConnection,
    /** Row positions of each entity (the largest sort_key): bitsets and arrays are this long. */
    private readonly rows: { contacts: number; companies: number },
  ) {}

  async resolve(list: Suppression, version: number): Promise<{ suppressed: Suppressed | null; stats: ResolveStats }> {
    const started = performance.now();
    this.hashIndexMs = null;
    let entries = 0;
    const fresh = {} as Record<OptOutType, string[]>;
    for (const type of SUPPRESSION_TYPES) {
      const values = list[SUPPRESSION_FIELD[type]];
      const known = this.hits[type];
      const out: string[] = [];
      for (const v of values) {
        if (known.has(v)) continue;
        known.set(v, 0);
        out.push(v);
      }
      fresh[type] = out;
      entries += values.length;
    }
    try {
      await this.resolveValues(fresh);
      await this.resolveHashes(fresh.sha256);
    } catch (e) {
      // Not resolved: not cached either (a retry resolves them again).
      for (const type of SUPPRESSION_TYPES) for (const v of fresh[type]) this.hits[type].delete(v);
      throw e;
    }
    const contacts = emptyBitset(this.rows.contacts);
    const set = (k: number) => {
      contacts[(k - 1) >>> 5]! |= 1 << ((k - 1) & 31);
    };
    for (const type of SUPPRESSION_TYPES) {
      const values = list[SUPPRESSION_FIELD[type]];
      const known = this.hits[type];
      for (const v of values) {
        const hit = known.get(v)!;
        if (typeof hit === 'number') {
          if (hit > 0) set(hit);
        } else for (const k of hit) set(k);
      }
      if (known.size > 2 * values.length + PRUNE_SLACK)
        this.hits[type] = new Map(values.map((v) => [v, known.get(v)!]));
    }
    const count = countBits(contacts);
    const resolved = SUPPRESSION_TYPES.reduce((n, t) => n + fresh[t].length, 0);
    const stats = (n: number): ResolveStats => ({
      entries,
      resolved,
      contacts: n,
      hashIndexMs: this.hashIndexMs,
      ms: Math.round(performance.now() - started),
    });
    if (count === 0) return { suppressed: null, stats: stats(0) };
    const companies = await this.cuts(contacts);
    return {
      suppressed: { version, count, contacts, contactsBits: bitValueOf(contacts, this.rows.contacts), companies },
      stats: stats(count),
    };
  }

  private hit(type: OptOutType, value: string, sortKey: number): void {
    const known = this.hits[type];
    const cur = known.get(value) ?? 0;
    if (cur === 0) known.set(value, sortKey);
    else if (typeof cur === 'number') {
      if (cur !== sortKey) known.set(value, [cur, sortKey]);
    } else if (!cur.includes(sortKey)) cur.push(sortKey);
  }

  /** Matches of new id, email, phone and profile slug values, by equality with each column of their type. */
  private async resolveValues(fresh: Record<OptOutType, string[]>): Promise<void> {
    const types = SUPPRESSION_TYPES.filter((t) => t !== 'sha256' && fresh[t].length > 0);
    const all = types.flatMap((t) => fresh[t].map((v) => [t, v] as const));
    if (all.length === 0) return;
    const p = new Params();
    const table = ident(TABLE.contact);
    const parts: string[] = [];
    if (all.length <= IN_LIST_MAX) {
      // Bound values: each column's lookup index answers them.
      let at = 0;
      for (const t of types) {
        const from = at;
        at += fresh[t].length;
        for (const c of SUPPRESSION_COLUMNS[t]) {
          const cases = fresh[t].map((v, j) => `WHEN ${p.add(v)} THEN ${from + j}`).join(' ');
          parts.push(
            `SELECT CASE ${ident(c)} ${cases} END AS i, sort_key::INTEGER AS k FROM ${table} WHERE ${ident(c)} IN ` +
              `(${fresh[t].map((v) => p.add(v)).join(', ')})`,
          );
        }
      }
    } else {
      await replaceTempTable(this.conn, 'cds_suppress_values', [
        { name: 'i', type: INTEGER, sql: 'INTEGER', values: all.map((_, i) => i) },
        { name: 't', type: INTEGER, sql: 'INTEGER', values: all.map(([t]) => SUPPRESSION_TYPES.indexOf(t)) },
        { name: 'v', type: VARCHAR, sql: 'VARCHAR', values: all.map(([, v]) => v) },
      ]);
      for (const t of types) {
        for (const c of SUPPRESSION_COLUMNS[t]) {
          parts.push(
            `SELECT s.i, c.sort_key::INTEGER AS k FROM temp.cds_suppress_values s JOIN ${table} c ON c.${ident(c)} = ` +
              `s.v WHERE s.t = ${p.add(SUPPRESSION_TYPES.indexOf(t))}`,
          );
        }
      }
    }
    const [i, k] = await readColumns(this.conn, parts.join(' UNION ALL '), p.values);
    for (let r = 0; r < (i?.length ?? 0); r++) {
      const [type, value] = all[i![r] as number]!;
      this.hit(type, value, k![r] as number);
    }
    if (all.length > IN_LIST_MAX) await this.conn.run('DROP TABLE IF EXISTS temp.cds_suppress_values');
  }

  /**
   * Matches of new sha256 values: candidates from the release's hash prefixes (hash-index.ts), kept where the whole
   * hash of one of their email or phone values is the entry (checked by DuckDB on the candidate rows only).
   */
  private async resolveHashes(fresh: readonly string[]): Promise<void> {
    if (fresh.length === 0) return;
    const index = await this.hashIndex();
    const entry: number[] = [];
    const keys: number[] = [];
    const hashes: string[] = [];
    fresh.forEach((hex, i) => {
      for (const k of index.candidates(hex)) {
        entry.push(i);
        keys.push(k);
        hashes.push(hex);
      }
    });
    if (entry.length === 0) return;
    await replaceTempTable(this.conn, 'cds_suppress_candidates', [
      { name: 'i', type: INTEGER, sql: 'INTEGER', values: entry },
      { name: 'k', type: INTEGER, sql: 'INTEGER', values: keys },
      { name: 'h', type: VARCHAR, sql: 'VARCHAR', values: hashes.map((h) => h.toLowerCase()) },
    ]);
    const same = SUPPRESSION_COLUMNS.sha256.map((c) => `sha256(c.${ident(c)}) = s.h`).join(' OR ');
    const [i, k] = await readColumns(
      this.conn,
      `SELECT s.i, s.k FROM temp.cds_suppress_candidates s JOIN ${ident(TABLE.contact)} c ON c.sort_key = s.k WHERE ` +
        `${same}`,
    );
    for (let r = 0; r < (i?.length ?? 0); r++) this.hit('sha256', fresh[i![r] as number]!, k![r] as number);
    await this.conn.run('DROP TABLE IF EXISTS temp.cds_suppress_candidates');
  }

  private hashIndex(): Promise<HashPrefixIndex> {
    if (!this.hashes) {
      const started = performance.now();
      this.hashes = HashPrefixIndex.build(this.conn).then((ix) => {
        this.hashIndexMs = Math.round(performance.now() - started);
        return ix;
      });
      this.hashes.catch(() => {
        this.hashes = null;
      });
    }
    return this.hashes;
  }

  /**
   * Every contact's employer (the company whose id is its `company_id`, as the release writer counted contacts) and
   * every company's stored contact_count, read once per release the first time a list suppresses someone: 4 bytes a
   * contact and a company (4.4 MB at 1 M contacts), so cutting counts never queries.
   */
  private employersOf(): Promise<Employers> {
    if (!this.employers) {
      this.employers = (async () => {
        const company = await readIntsByKey(
          this.conn,
          `SELECT c.sort_key, coalesce(co.sort_key, 0)::INTEGER FROM ${ident(TABLE.contact)} c LEFT JOIN ` +
            `${ident(TABLE.company)} co ON co.id = c.company_id`,
          this.rows.contacts,
        );
        const stored = await readIntsByKey(
          this.conn,
          `SELECT sort_key, contact_count::INTEGER FROM ${ident(TABLE.company)}`,
          this.rows.companies,
        );
        return { company, stored };
      })();
      this.employers.catch(() => {
        this.employers = null;
      });
    }
    return this.employers;
  }

  /** What the suppressed contacts take from their employers' stored contact counts. */
  private async cuts(contacts: Int32Array): Promise<CompanyCuts | null> {
    const { company, stored } = await this.employersOf();
    const cut = new Int32Array(this.rows.companies);
    forEachKey(contacts, (k) => {
      const c = company[k - 1]!;
      if (c > 0) cut[c - 1]!++;
    });
    const rows: number[] = [];
    const counts: number[] = [];
    for (let r = 0; r < cut.length; r++) {
      if (cut[r] === 0) continue;
      rows.push(r);
      counts.push(stored[r]! - cut[r]!);
    }
    if (rows.length === 0) return null;
    const affected = bitsetOf(Int32Array.from(rows), this.rows.companies);
    return {
      cut,
      rows: Int32Array.from(rows),
      counts: Int32Array.from(counts),
      affected,
      affectedBits: bitValueOf(affected, this.rows.companies),
    };
  }
}

interface Employers {
  /** Company sort key of each contact's employer (index sort_key - 1; 0: none). */
  company: Int32Array;
  /** Stored contact_count of each company (index sort_key - 1). */
  stored: Int32Array;
}
