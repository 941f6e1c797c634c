import type { DuckDBConnection } from '@duckdb/node-api';
import { SUPPRESSION_COLUMNS } from '../../../domain/suppression.js';
import { ident, TABLE } from '../schema.js';

/**
 * The SHA-256 of every email and phone value of a release (domain/suppression.ts SUPPRESSION_COLUMNS.sha256), kept
 * to match `sha256` opt-outs: computed once per release, the first time a list holds such an entry, by DuckDB's
 * `sha256` over the columns. Only the first 32 bits of each hash are kept, sorted, beside the row's sort key (8
 * bytes a value: 9 MB for the 1.1 M values of 1 M contacts); a lookup gives the rows whose hash shares those bits,
 * which resolve.ts then checks against the whole hash of their values (a 32-bit prefix is shared by chance about
 * once per 4,000 lookups at 1 M contacts, so the check reads a handful of rows more than match).
 */
export class HashPrefixIndex {
  private constructor(
    private readonly prefixes: Uint32Array,
    private readonly keys: Int32Array,
  ) {}

  static async build(conn: DuckDBConnection): Promise<HashPrefixIndex> {
    const table = ident(TABLE.contact);
    const values = SUPPRESSION_COLUMNS.sha256.map(
      (c) => `SELECT ${ident(c)} AS v, sort_key FROM ${table} WHERE ${ident(c)} IS NOT NULL AND ${ident(c)} <> ''`,
    );
    const result = await conn.stream(
      `SELECT ('0x' || left(sha256(v), 8))::UINTEGER AS p, sort_key::INTEGER AS k FROM (${values.join(' UNION ALL ')}) ` +
        'ORDER BY p, k',
    );
    // Read straight into typed arrays (doubled as they fill): 11 M values at 10 M contacts stay 88 MB.
    let prefixes = new Uint32Array(1 << 16);
    let keys = new Int32Array(1 << 16);
    let n = 0;
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      if (n + chunk.rowCount > prefixes.length) {
        const size = Math.max(prefixes.length * 2, n + chunk.rowCount);
        const p = new Uint32Array(size);
        p.set(prefixes);
        prefixes = p;
        const k = new Int32Array(size);
        k.set(keys);
        keys = k;
      }
      const pv = chunk.getColumnVector(0);
      const kv = chunk.getColumnVector(1);
      for (let i = 0; i < chunk.rowCount; i++, n++) {
        prefixes[n] = pv.getItem(i) as number;
        keys[n] = kv.getItem(i) as number;
      }
    }
    return new HashPrefixIndex(prefixes.slice(0, n), keys.slice(0, n));
  }

  get size(): number {
    return this.prefixes.length;
  }

  /** Sort keys of the rows whose value's hash starts like `hex` (64 lowercase hex digits), ascending, maybe none. */
  candidates(hex: string): number[] {
    const p = Number.parseInt(hex.slice(0, 8), 16);
    if (!Number.isFinite(p)) return [];
    let lo = 0;
    let hi = this.prefixes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.prefixes[mid]! < p) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let i = lo; i < this.prefixes.length && this.prefixes[i] === p; i++) out.push(this.keys[i]!);
    return out;
  }
}
