import { closeSync, openSync, readSync } from 'node:fs';
import type { Entity } from '../../../domain/catalog/index.js';
import { andInto, type Bitset, emptyBitset, fillRows, invert, orInto, setRows, wordsFor } from './bitset.js';
import {
  type ArrayRef,
  type ColumnHeader,
  compareTerms,
  DICTIONARIES,
  type EntityHeader,
  encodingOf,
  INDEX_MAGIC,
  INDEX_VERSION,
  INDEX_VERSION_LIVE,
  type IndexHeader,
  type PostingRef,
  type StoredTerms,
  type Term,
  type TermsHeader,
} from './format.js';

export type IndexOpening = { index: BitmapIndex; reason?: undefined } | { index: null; reason: string };

/** Decoded postings kept in memory, least recently used first out, within a byte budget. */
class PostingCache {
  private readonly map = new Map<number, Int32Array>();
  private bytes = 0;
  constructor(private readonly budget: number) {}

  get(off: number): Int32Array | undefined {
    const hit = this.map.get(off);
    if (hit) {
      this.map.delete(off);
      this.map.set(off, hit);
    }
    return hit;
  }

  put(off: number, words: Int32Array): void {
    if (words.byteLength > this.budget / 4) return;
    this.map.set(off, words);
    this.bytes += words.byteLength;
    for (const [k, v] of this.map) {
      if (this.bytes <= this.budget) break;
      this.map.delete(k);
      this.bytes -= v.byteLength;
    }
  }
}

/**
 * A release's bitmap index, open for reading (format.ts). The header (dictionaries and posting offsets) is held
 * in memory; postings are read from the file when a query needs them (the OS page cache keeps hot ones) and the
 * decoded ones kept in a bounded cache, so the server's memory does not grow with the release.
 */
export class BitmapIndex {
  private constructor(
    private readonly fd: number,
    private readonly header: IndexHeader,
    private readonly cache: PostingCache,
  ) {}

  /** Opens the index of a release; null with the reason when it is missing, foreign or unreadable. Never throws. */
  static open(file: string, release: { id: string; contacts: number; companies: number }, cacheMb = 256): IndexOpening {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch (e) {
      return { index: null, reason: `no index (${(e as Error).message})` };
    }
    try {
      const header = readHeader(fd);
      if (header.releaseId !== release.id) throw new Error(`it belongs to release ${header.releaseId}`);
      const count = (e: EntityHeader): number => e.live?.[1] ?? e.rows;
      if (count(header.entities.contact) !== release.contacts || count(header.entities.company) !== release.companies)
        throw new Error('its row counts differ from the release');
      return { index: new BitmapIndex(fd, header, new PostingCache(cacheMb * 2 ** 20)) };
    } catch (e) {
      closeSync(fd);
      return { index: null, reason: `index not used: ${(e as Error).message}` };
    }
  }

  entity(entity: Entity): EntityIndex {
    return new EntityIndex(this.header.entities[entity], (ref, words) => this.read(ref, words));
  }

  private read(ref: PostingRef, words: number): Int32Array {
    const hit = this.cache.get(ref[0]);
    if (hit) return hit;
    const out = readArray(this.fd, [ref[0], words], (n) => new Int32Array(n));
    this.cache.put(ref[0], out);
    return out;
  }

  close(): void {
    closeSync(this.fd);
  }
}

/**
 * The header of an open index file, its dictionaries' arrays loaded (a file of another format or version throws).
 * Also what a delta's patch reads its parent's index with (patch.ts).
 */
export function readHeader(fd: number): IndexHeader {
  const pre = Buffer.alloc(16);
  readSync(fd, pre, 0, 16, 0);
  if (pre.toString('latin1', 0, 8) !== INDEX_MAGIC) throw new Error('it is not an index file');
  const at = pre.readDoubleLE(8);
  const chunks: Buffer[] = [];
  for (let pos = at; ; ) {
    const buf = Buffer.alloc(1 << 22);
    const n = readSync(fd, buf, 0, buf.length, pos);
    if (n === 0) break;
    chunks.push(buf.subarray(0, n));
    pos += n;
  }
  const stored = JSON.parse(Buffer.concat(chunks).toString('utf8')) as IndexHeader<StoredTerms>;
  if (stored.version !== INDEX_VERSION && stored.version !== INDEX_VERSION_LIVE)
    throw new Error(`its version ${stored.version} is not ${INDEX_VERSION} (cds releases index rebuilds it)`);
  return hydrate(fd, stored);
}

/** Reads `ref[1]` elements at byte offset `ref[0]`: a posting, or an array kept outside the header (ArrayRef). */
function readArray<T extends Float64Array | Int32Array>(fd: number, ref: ArrayRef, make: (n: number) => T): T {
  const out = make(ref[1]);
  const buf = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  let done = 0;
  while (done < buf.length) {
    const n = readSync(fd, buf, done, buf.length - done, ref[0] + done);
    if (n === 0) throw new Error('the index file is truncated');
    done += n;
  }
  return out;
}

/** The header with its dictionaries' offsets and counts loaded from the file. */
function hydrate(fd: number, stored: IndexHeader<StoredTerms>): IndexHeader {
  const entity = (e: EntityHeader<StoredTerms>): EntityHeader => ({
    rows: e.rows,
    ...(e.live ? { live: e.live } : {}),
    columns: Object.fromEntries(
      Object.entries(e.columns).map(([name, col]) => {
        const out: ColumnHeader = { present: col.present, notnull: col.notnull };
        if (col.ranges) out.ranges = col.ranges;
        for (const k of DICTIONARIES) {
          const t = col[k];
          if (t)
            out[k] = {
              values: t.values,
              off: readArray(fd, t.off, (n) => new Float64Array(n)),
              cnt: readArray(fd, t.cnt, (n) => new Int32Array(n)),
            };
        }
        return [name, out];
      }),
    ),
  });
  return {
    version: stored.version,
    releaseId: stored.releaseId,
    entities: { contact: entity(stored.entities.contact), company: entity(stored.entities.company) },
  };
}

/** One entity's part of the index: its columns' postings, read into bitsets. */
export class EntityIndex {
  constructor(
    private readonly header: EntityHeader,
    private readonly readWords: (ref: PostingRef, words: number) => Int32Array,
  ) {}

  /** Row positions (bitsets are this long); some hold no row when the header has `live`. */
  get rows(): number {
    return this.header.rows;
  }

  /** A fresh bitset of every row. */
  all(): Bitset {
    const live = this.header.live;
    if (!live) {
      const b = emptyBitset(this.header.rows);
      fillRows(b, this.header.rows);
      return b;
    }
    return this.bitset(live);
  }

  /** The complement of a bitset within the rows, in place. */
  complement(b: Bitset): void {
    invert(b, this.header.rows);
    const live = this.header.live;
    if (live) andInto(b, this.bitset(live));
  }

  column(name: string): ColumnHeader | undefined {
    return this.header.columns[name];
  }

  /** ORs one posting into a bitset. */
  orPosting(target: Bitset, ref: PostingRef): void {
    const rows = this.header.rows;
    switch (encodingOf(ref[1], rows)) {
      case 'none':
        return;
      case 'all':
        fillRows(target, rows);
        return;
      case 'dense':
        orInto(target, this.readWords(ref, wordsFor(rows)));
        return;
      case 'sparse':
        setRows(target, this.readWords(ref, ref[1]));
    }
  }

  /** A fresh bitset of the rows of one posting. */
  bitset(ref: PostingRef): Bitset {
    const b = emptyBitset(this.header.rows);
    this.orPosting(b, ref);
    return b;
  }

  /** A fresh bitset of the rows holding any of the terms whose positions in the dictionary are given. */
  union(terms: TermsHeader, positions: Iterable<number>): Bitset {
    const b = emptyBitset(this.header.rows);
    for (const i of positions) this.orPosting(b, [terms.off[i]!, terms.cnt[i]!]);
    return b;
  }
}

/** Position of a value in a sorted dictionary, or -1. */
export function findTerm(terms: TermsHeader, v: Term): number {
  const i = lowerBound(terms.values, v);
  return i < terms.values.length && compareTerms(terms.values[i]!, v) === 0 ? i : -1;
}

/** First position whose value is >= v (or > v when `after`). */
function bound(values: readonly Term[], v: Term, after: boolean): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareTerms(values[mid]!, v);
    if (c < 0 || (after && c === 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export const lowerBound = (values: readonly Term[], v: Term): number => bound(values, v, false);
export const upperBound = (values: readonly Term[], v: Term): number => bound(values, v, true);
