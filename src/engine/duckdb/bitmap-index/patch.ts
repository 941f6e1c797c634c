import { closeSync, fstatSync, openSync, read, readFileSync, readSync } from 'node:fs';
import type { Entity } from '../../../domain/catalog/index.js';
import { andNotInto, type Bitset, countBits, emptyBitset, setRows, setRowsFrom, wordsFor } from './bitset.js';
import { PostingWriter } from './build.js';
import {
  type ArrayRef,
  type ColumnHeader,
  compareTerms,
  DICTIONARIES,
  type EntityHeader,
  encodingOf,
  INDEX_VERSION,
  INDEX_VERSION_LIVE,
  type IndexHeader,
  type PostingRef,
  type RangesHeader,
  type StoredTerms,
  type Term,
  type TermsHeader,
} from './format.js';
import { lowerBound, readHeader } from './reader.js';

/**
 * The index of a release a delta load patched (release-writer/patch-release.ts) from its parent's index, without
 * reading the release's columns again: every posting of the parent, less the rows the delta removed or rewrote, plus
 * the postings of the rows it wrote (a small index built from those rows alone, `delta`). The parent's postings are
 * read in file order, in large sequential reads, and each is written once in the encoding its new row count asks
 * for; values no row holds any more leave the dictionaries; range blocks keep their boundary values.
 * Answers are those of an index built from the patched release (test/e2e/delta-load.test.ts and
 * test/engine/conformance/index-trees.test.ts compare them).
 */

export interface EntityPatch {
  /** Positions (sort_key - 1) of the parent's rows that are gone or rewritten: deleted, replaced, re-derived. */
  removed: Int32Array;
  /** Positions of the rows the delta wrote (the rows of the delta's index). */
  written: Int32Array;
}

export interface IndexPatch {
  parentFile: string;
  /** The release the parent index must belong to. */
  parentId: string;
  /** The index of the written rows, built with the new release's positions (build.ts EntitySource.rows). */
  deltaFile: string;
  outFile: string;
  releaseId: string;
  entities: Record<Entity, EntityPatch>;
}

/** Where a written posting's ref goes: slot `at` of a dictionary's arrays, or a callback. */
type Sink = { off: Float64Array; cnt: Int32Array } | ((ref: PostingRef) => void);

/**
 * The postings of the new index, to be written: each one's parent posting (offset -1: none), rows to add, the entity
 * merging it and where its ref goes. Millions of them at 10 M contacts, so they are kept in parallel typed arrays
 * (one object each kept the collector busy with a large heap for most of the merge).
 */
class Jobs {
  n = 0;
  poff = new Float64Array(1 << 16);
  pcnt = new Int32Array(1 << 16);
  /**
   * The rows to add: a posting of the delta's index (its byte offset, >= 0, and row count; decoded when written, so no
   * array is held per posting), rows at hand (-1 - i: `adds[i]`), or none (NONE).
   */
  aoff = new Float64Array(1 << 16);
  acnt = new Int32Array(1 << 16);
  merge = new Uint8Array(1 << 16);
  sink = new Int32Array(1 << 16);
  at = new Int32Array(1 << 16);
  readonly adds: Uint32Array[] = [];
  readonly sinks: Sink[] = [];

  sinkOf(sink: Sink): number {
    return this.sinks.push(sink) - 1;
  }

  push(merge: number, poff: number, pcnt: number, add: Add, sink: number, at: number): void {
    if (this.n === this.poff.length) this.grow();
    const i = this.n++;
    this.merge[i] = merge;
    this.poff[i] = poff;
    this.pcnt[i] = pcnt;
    if (add instanceof Uint32Array) {
      this.aoff[i] = add.length > 0 ? -1 - (this.adds.push(add) - 1) : NONE;
      this.acnt[i] = add.length;
    } else {
      this.aoff[i] = add[1] > 0 ? add[0] : NONE;
      this.acnt[i] = add[1];
    }
    this.sink[i] = sink;
    this.at[i] = at;
  }

  /** The rows job `i` adds, ascending. */
  rowsToAdd(i: number, m: EntityMerge): Uint32Array {
    const off = this.aoff[i]!;
    if (off === NONE) return NO_ROWS;
    return off >= 0 ? m.deltaRows([off, this.acnt[i]!]) : this.adds[-1 - off]!;
  }

  private grow(): void {
    const twice = <T extends Float64Array | Int32Array | Uint8Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(a.length * 2);
      b.set(a);
      return b;
    };
    this.poff = twice(this.poff);
    this.pcnt = twice(this.pcnt);
    this.aoff = twice(this.aoff);
    this.acnt = twice(this.acnt);
    this.merge = twice(this.merge);
    this.sink = twice(this.sink);
    this.at = twice(this.at);
  }

  /** Job numbers in the order of their parent postings in the file (sequential reads); those without one last. */
  fileOrder(): Uint32Array {
    const n = this.n;
    const poff = this.poff;
    const last = 2 ** 30 - 1;
    const key = (i: number): number => (poff[i]! < 0 ? last : poff[i]! / 4);
    const order = new Uint32Array(n);
    const shift = 2 ** 23;
    let fits = n < shift;
    for (let i = 0; i < n && fits; i++) fits = key(i) <= last;
    if (!fits) {
      for (let i = 0; i < n; i++) order[i] = i;
      return order.sort((a, b) => key(a) - key(b) || a - b);
    }
    // key * 2^23 + job stays below 2^53: one native sort of doubles instead of a comparator over millions of jobs.
    const packed = new Float64Array(n);
    for (let i = 0; i < n; i++) packed[i] = key(i) * shift + i;
    packed.sort();
    for (let i = 0; i < n; i++) order[i] = packed[i]! % shift;
    return order;
  }
}

const NO_ROWS = new Uint32Array(0);
/** Jobs.aoff of a job adding no rows. */
const NONE = -(2 ** 52);

/** Rows to add: a posting of the delta's index, or rows at hand (a union of several). */
type Add = PostingRef | Uint32Array;

const WINDOW_BYTES = 64 * 2 ** 20;

/** Reads up to `length` bytes at `at` into `buf` on libuv's threads; resolves with the bytes read (fewer at the end). */
function readAt(fd: number, buf: Buffer, length: number, at: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let got = 0;
    const next = (): void =>
      read(fd, buf, got, length - got, at + got, (e, n) => {
        if (e) return reject(e);
        got += n;
        if (n === 0 || got === length) resolve(got);
        else next();
      });
    next();
  });
}

/**
 * Sequential reads of the parent file: one large read serves the postings that follow each other. `at` answers where
 * a posting's words start in `words` (no view is made per posting: there are millions at 10 M contacts). ensure()
 * moves the window on asynchronously, and reads the next window ahead while the current one is merged, so the merge
 * does not wait for the disk between windows.
 */
class Window {
  words: Int32Array = new Int32Array(0);
  private start = 0;
  /**
   * Two buffers, one shown and one read ahead into, used in turn: a new 64 MB buffer per window drove the collector
   * (with the arrays then held per delta posting, it took about 11 s of a 10 M merge).
   */
  private readonly buffers = [Buffer.allocUnsafeSlow(WINDOW_BYTES), Buffer.allocUnsafeSlow(WINDOW_BYTES)];
  private shown = 0;
  private ahead: { start: number; slot: number; read: Promise<number> } | null = null;
  constructor(
    private readonly fd: number,
    private readonly size: number,
  ) {}

  private covers(off: number, len: number): boolean {
    return off >= this.start && off + len <= this.start + this.words.length * 4;
  }

  private show(buf: Buffer, start: number, got: number): void {
    this.words = new Int32Array(buf.buffer, buf.byteOffset, Math.floor(got / 4));
    this.start = start;
  }

  /** Null when `len` bytes at `off` are in the window; else a promise that settles once they are. */
  ensure(off: number, len: number): Promise<void> | null {
    return this.covers(off, len) ? null : this.move(off, len);
  }

  private async move(off: number, len: number): Promise<void> {
    // The read ahead, if any, settles first: its buffer is the one read into next.
    const ahead = this.ahead;
    this.ahead = null;
    if (ahead) {
      const got = await ahead.read;
      if (ahead.start <= off && off + len <= ahead.start + got) {
        this.shown = ahead.slot;
        this.show(this.buffers[ahead.slot]!, ahead.start, got);
      }
    }
    if (!this.covers(off, len)) {
      const slot = 1 - this.shown;
      const buf = len > WINDOW_BYTES ? Buffer.allocUnsafeSlow(len) : this.buffers[slot]!;
      const got = await readAt(this.fd, buf, buf.length, off);
      if (got < len) throw new Error('the parent index file is truncated');
      this.shown = slot;
      this.show(buf, off, got);
    }
    const next = this.start + this.words.length * 4;
    if (next < this.size) {
      const slot = 1 - this.shown;
      const read = readAt(this.fd, this.buffers[slot]!, WINDOW_BYTES, next);
      read.catch(() => undefined);
      this.ahead = { start: next, slot, read };
    }
  }

  /** Where a posting's words start in `words`; reads them synchronously when they are not in the window. */
  at(off: number, count: number): number {
    const len = count * 4;
    if (!this.covers(off, len)) {
      // A buffer of its own: a read ahead may be filling the other one.
      const b = Buffer.allocUnsafeSlow(Math.max(WINDOW_BYTES, len));
      let got = 0;
      while (got < b.length) {
        const r = readSync(this.fd, b, got, b.length - got, off + got);
        if (r === 0) break;
        got += r;
      }
      if (got < len) throw new Error('the parent index file is truncated');
      this.show(b, off, got);
    }
    return (off - this.start) / 4;
  }

  /** Lets a read ahead finish before the file is closed. */
  async settle(): Promise<void> {
    await this.ahead?.read.catch(() => undefined);
  }
}

/** One entity's postings: decoding the parent's and the delta's, and merging them. */
class EntityMerge {
  readonly rows: number;
  private readonly removed: Bitset;
  /** Scratch space reused by write(): a sparse posting's kept rows, a dense posting's bits. */
  private kept = new Uint32Array(1024);
  private readonly bits: Bitset;
  private readonly parentAll: Bitset;

  constructor(
    private readonly parent: EntityHeader,
    delta: EntityHeader,
    private readonly deltaBytes: Buffer,
    patch: EntityPatch,
    window: Window,
  ) {
    this.rows = delta.rows;
    this.removed = emptyBitset(this.rows);
    this.bits = emptyBitset(this.rows);
    for (const r of patch.removed) if (r < this.rows) this.removed[r >>> 5]! |= 1 << (r & 31);
    // Every row of the parent (its live rows), as positions of the new release.
    this.parentAll = emptyBitset(this.rows);
    if (parent.live) this.orParent(this.parentAll, parent.live, window);
    else for (let r = 0; r < Math.min(parent.rows, this.rows); r++) this.parentAll[r >>> 5]! |= 1 << (r & 31);
  }

  /** ORs a parent posting into a bitset of the new positions (rows past them are gone: they are all removed). */
  private orParent(target: Bitset, ref: PostingRef, window: Window): void {
    const prows = this.parent.rows;
    switch (encodingOf(ref[1], prows)) {
      case 'none':
        return;
      case 'all':
        for (let i = 0; i < target.length; i++) target[i]! |= this.parentAll[i]!;
        return;
      case 'dense': {
        const count = wordsFor(prows);
        const a = window.at(ref[0], count);
        const w = window.words;
        const n = Math.min(count, target.length);
        for (let i = 0; i < n; i++) target[i]! |= w[a + i]!;
        const rem = this.rows % 32;
        if (count >= target.length && rem !== 0) target[target.length - 1]! &= 2 ** rem - 1;
        return;
      }
      case 'sparse': {
        const a = window.at(ref[0], ref[1]);
        const w = window.words;
        for (let i = a; i < a + ref[1]; i++) {
          const r = w[i]!;
          if (r < this.rows) target[r >>> 5]! |= 1 << (r & 31);
        }
      }
    }
  }

  /** Bytes of a parent posting of `pcnt` rows in the parent file (0: none stored). */
  parentBytes(pcnt: number): number {
    switch (encodingOf(pcnt, this.parent.rows)) {
      case 'sparse':
        return pcnt * 4;
      case 'dense':
        return wordsFor(this.parent.rows) * 4;
      default:
        return 0;
    }
  }

  /** The rows of one of the delta index's postings, ascending. */
  deltaRows(ref: PostingRef | undefined): Uint32Array {
    if (!ref) return NO_ROWS;
    switch (encodingOf(ref[1], this.rows)) {
      case 'none':
        return NO_ROWS;
      case 'all':
        return Uint32Array.from({ length: this.rows }, (_, i) => i);
      case 'dense': {
        const bits = this.deltaWords(ref[0], wordsFor(this.rows));
        return Uint32Array.from(setRowsFrom(bits, 0, 0, ref[1]));
      }
      case 'sparse': {
        // A view of the delta file's bytes where aligned (its postings are 4-byte aligned; the buffer's start may not be).
        const at = this.deltaBytes.byteOffset + ref[0];
        return at % 4 === 0
          ? new Uint32Array(this.deltaBytes.buffer, at, ref[1])
          : new Uint32Array(this.deltaWords(ref[0], ref[1]).buffer);
      }
    }
  }

  private deltaWords(off: number, count: number): Int32Array {
    const out = new Int32Array(count);
    Buffer.from(out.buffer).set(this.deltaBytes.subarray(off, off + count * 4));
    return out;
  }

  /**
   * Writes a posting: the parent's rows (its posting at byte `poff`, of `pcnt` rows; `poff` -1: none) less the removed
   * ones, plus `add` (ascending, disjoint from them).
   */
  write(out: PostingWriter, window: Window, poff: number, pcnt: number, add: Uint32Array): PostingRef {
    const prows = this.parent.rows;
    const enc = poff >= 0 ? encodingOf(pcnt, prows) : 'none';
    const removed = this.removed;
    if (enc === 'sparse') {
      const cnt = pcnt;
      const a = window.at(poff, cnt);
      const w = window.words;
      // Most postings hold none of the delta's rows: their words are copied as they are.
      if (add.length === 0 && encodingOf(cnt, this.rows) === 'sparse') {
        let touched = false;
        for (let i = a; i < a + cnt && !touched; i++) {
          const r = w[i]!;
          touched = r >= this.rows || (removed[r >>> 5]! & (1 << (r & 31))) !== 0;
        }
        if (!touched) return out.copyWords(w, a, cnt, cnt);
      }
      if (this.kept.length < cnt + add.length)
        this.kept = new Uint32Array(Math.max(cnt + add.length, 2 * this.kept.length));
      const kept = this.kept;
      let n = 0;
      let j = 0;
      for (let i = a; i < a + cnt; i++) {
        const r = w[i]!;
        if (r >= this.rows || (removed[r >>> 5]! & (1 << (r & 31))) !== 0) continue;
        while (j < add.length && add[j]! < r) kept[n++] = add[j++]!;
        kept[n++] = r;
      }
      while (j < add.length) kept[n++] = add[j++]!;
      return out.write(kept.subarray(0, n), this.rows, true);
    }
    if (enc === 'dense' && add.length === 0 && encodingOf(pcnt, this.rows) === 'dense') {
      // A dense posting none of whose rows went: its words, with zeros for the positions the delta added.
      const count = wordsFor(prows);
      const a = window.at(poff, count);
      const w = window.words;
      const keep = wordsFor(this.rows);
      let touched = count > keep;
      for (let i = 0; i < count && !touched; i++) touched = (w[a + i]! & removed[i]!) !== 0;
      if (!touched) return out.copyWords(w, a, count, pcnt, keep - count);
    }
    if (enc === 'none' && add.length * 32 <= this.rows) return out.write(add, this.rows, true);
    // One bitset reused for every dense posting (1.25 MB each at 10 M contacts; the writer copies it).
    const bits = this.bits;
    bits.fill(0);
    if (enc !== 'none') {
      this.orParent(bits, [poff, pcnt], window);
      andNotInto(bits, removed);
    }
    setRows(bits, add);
    return out.writeBits(bits, countBits(bits), this.rows);
  }

  /** The rows of the new release: the parent's less the removed, plus the written. */
  live(written: Int32Array): { bits: Bitset; count: number } {
    const bits = this.parentAll.slice();
    andNotInto(bits, this.removed);
    setRows(bits, written);
    return { bits, count: countBits(bits) };
  }
}

/** Merges two ascending dictionaries: each value once, with its position in the parent and in the delta (or -1). */
function mergeValues(
  p: readonly Term[],
  d: readonly Term[],
): { values: Term[]; parent: Int32Array; delta: Int32Array } {
  const values: Term[] = [];
  const parent = new Int32Array(p.length + d.length);
  const delta = new Int32Array(p.length + d.length);
  let i = 0;
  let j = 0;
  while (i < p.length || j < d.length) {
    const c = i >= p.length ? 1 : j >= d.length ? -1 : compareTerms(p[i]!, d[j]!);
    const at = values.length;
    values.push(c > 0 ? d[j]! : p[i]!);
    parent[at] = c <= 0 ? i++ : -1;
    delta[at] = c >= 0 ? j++ : -1;
  }
  return { values, parent: parent.subarray(0, values.length), delta: delta.subarray(0, values.length) };
}

/** Ascending union of some postings' rows. */
function unionRows(parts: Uint32Array[]): Uint32Array {
  const n = parts.reduce((sum, p) => sum + p.length, 0);
  const all = new Uint32Array(n);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all.sort();
}

const sameRef = (a: PostingRef, b: PostingRef): boolean => a[0] === b[0] && a[1] === b[1];

/** Queues jobs: their parent posting (offset -1: none), the rows to add, and where the ref goes. */
interface Queue {
  /** A dictionary's arrays, as the sink of its postings' jobs. */
  slots(off: Float64Array, cnt: Int32Array): number;
  /** Into slot `at` of a dictionary's arrays (no allocation per value: millions of them at 10 M contacts). */
  slot(poff: number, pcnt: number, add: Add, sink: number, at: number): void;
  /** To a callback. */
  call(parent: PostingRef | null, add: Add, done: (ref: PostingRef) => void): void;
}

/**
 * Queues the postings of one merged dictionary (and of the range blocks on it); answers what writes the dictionary
 * once they are written: values no row holds any more are left out, and each range boundary moves to the first value
 * at or after its old boundary value (blocks whose boundary falls off either end are dropped).
 */
function mergeDictionary(
  m: EntityMerge,
  pt: TermsHeader,
  dt: TermsHeader,
  q: Queue,
  ranges: RangesHeader | undefined,
): (out: PostingWriter) => { terms: StoredTerms; ranges?: RangesHeader } {
  const merged = mergeValues(pt.values, dt.values);
  const off = new Float64Array(merged.values.length);
  const cnt = new Int32Array(merged.values.length);
  const sink = q.slots(off, cnt);
  for (let i = 0; i < merged.values.length; i++) {
    const pi = merged.parent[i]!;
    const di = merged.delta[i]!;
    const add: Add = di >= 0 ? [dt.off[di]!, dt.cnt[di]!] : NO_ROWS;
    q.slot(pi >= 0 ? pt.off[pi]! : -1, pi >= 0 ? pt.cnt[pi]! : 0, add, sink, i);
  }
  const bounds = ranges ? ranges.at.map((a) => pt.values[a]!) : [];
  const prefix: PostingRef[] = [];
  if (ranges) {
    // Rows of the delta whose value sorts before each boundary.
    let j = 0;
    const below: Uint32Array[] = [];
    ranges.at.forEach((_, b) => {
      while (j < dt.values.length && compareTerms(dt.values[j]!, bounds[b]!) < 0)
        below.push(m.deltaRows([dt.off[j]!, dt.cnt[j++]!]));
      q.call(ranges.prefix[b]!, unionRows(below), (ref) => (prefix[b] = ref));
    });
  }
  return (out) => {
    const keep: number[] = [];
    for (let i = 0; i < cnt.length; i++) if (cnt[i]! > 0) keep.push(i);
    const values = keep.map((i) => merged.values[i]!);
    const terms: StoredTerms = {
      values,
      off: out.writeArray(Float64Array.from(keep, (i) => off[i]!)) as ArrayRef,
      cnt: out.writeArray(Int32Array.from(keep, (i) => cnt[i]!)) as ArrayRef,
    };
    if (!ranges) return { terms };
    const at: number[] = [];
    const refs: PostingRef[] = [];
    bounds.forEach((v, b) => {
      const a = lowerBound(values, v);
      if (a <= 0 || a >= values.length || (at.length > 0 && a <= at[at.length - 1]!)) return;
      at.push(a);
      refs.push(prefix[b]!);
    });
    return at.length ? { terms, ranges: { at, prefix: refs } } : { terms };
  };
}

/** The parent's index is missing, of a format this build does not read, or another release's: build in full. */
export class ParentIndexUnreadable extends Error {}

/**
 * Writes the patched index. The parent's postings are read ahead and the new ones written on libuv's threads while this
 * thread merges (patch-release publish runs DuckDB's checkpoint beside it too).
 */
export async function patchBitmapIndex(patch: IndexPatch): Promise<void> {
  let pfd: number;
  let parent: IndexHeader;
  try {
    pfd = openSync(patch.parentFile, 'r');
  } catch (e) {
    throw new ParentIndexUnreadable((e as Error).message);
  }
  try {
    parent = readHeader(pfd);
    if (parent.releaseId !== patch.parentId) throw new Error(`it belongs to release ${parent.releaseId}`);
  } catch (e) {
    closeSync(pfd);
    throw new ParentIndexUnreadable((e as Error).message);
  }
  let ofd: number;
  try {
    ofd = openSync(patch.outFile, 'w');
  } catch (e) {
    closeSync(pfd);
    throw e;
  }
  let window: Window | undefined;
  let out: PostingWriter | undefined;
  try {
    const dfd = openSync(patch.deltaFile, 'r');
    let delta: IndexHeader;
    try {
      delta = readHeader(dfd);
    } finally {
      closeSync(dfd);
    }
    const deltaBytes = readFileSync(patch.deltaFile);
    window = new Window(pfd, fstatSync(pfd).size);
    out = new PostingWriter(ofd, true);
    const jobs = new Jobs();
    const merges: EntityMerge[] = [];
    const entities = {} as Record<Entity, EntityHeader<StoredTerms>>;
    const dictionaries: Array<(out: PostingWriter) => void> = [];
    for (const entity of ['contact', 'company'] as const) {
      const m = new EntityMerge(
        parent.entities[entity],
        delta.entities[entity],
        deltaBytes,
        patch.entities[entity],
        window,
      );
      const mi = merges.push(m) - 1;
      const q: Queue = {
        slots: (off, cnt) => jobs.sinkOf({ off, cnt }),
        slot: (poff, pcnt, rows, sink, at) => jobs.push(mi, poff, pcnt, rows, sink, at),
        call: (parentRef, rows, done) =>
          jobs.push(mi, parentRef ? parentRef[0] : -1, parentRef ? parentRef[1] : 0, rows, jobs.sinkOf(done), 0),
      };
      const head: EntityHeader<StoredTerms> = { rows: m.rows, columns: {} };
      entities[entity] = head;
      const live = m.live(patch.entities[entity].written);
      if (live.count !== m.rows) head.live = out.writeBits(live.bits, live.count, m.rows);
      const dcols = delta.entities[entity].columns;
      for (const [name, pcol] of Object.entries(parent.entities[entity].columns)) {
        const dcol = dcols[name];
        if (!dcol) continue;
        const col = { present: [0, 0], notnull: [0, 0] } as ColumnHeader<StoredTerms>;
        head.columns[name] = col;
        // present and notnull are often one posting: merged once.
        const shared = sameRef(pcol.notnull, pcol.present) && sameRef(dcol.notnull, dcol.present);
        q.call(pcol.present, dcol.present, (ref) => {
          col.present = ref;
          if (shared) col.notnull = ref;
        });
        if (!shared) q.call(pcol.notnull, dcol.notnull, (ref) => (col.notnull = ref));
        for (const k of DICTIONARIES) {
          const pt = pcol[k];
          const dt = dcol[k];
          // A dictionary either index left out (values JSON cannot carry) leaves the column to the scan.
          if (!pt || !dt) continue;
          const finish = mergeDictionary(m, pt, dt, q, k === 'terms' ? pcol.ranges : undefined);
          dictionaries.push((o) => {
            const done = finish(o);
            col[k] = done.terms;
            if (done.ranges) col.ranges = done.ranges;
          });
        }
      }
    }
    // The parent's postings in file order (sequential reads), then those only the delta has.
    for (const j of jobs.fileOrder()) {
      const m = merges[jobs.merge[j]!]!;
      if (jobs.poff[j]! >= 0) {
        const moved = window.ensure(jobs.poff[j]!, m.parentBytes(jobs.pcnt[j]!));
        if (moved) await moved;
      }
      // A few buffers in flight at most: the merge must not outrun the disk by more.
      if (out.pending > 3) await out.drain(2);
      const ref = m.write(out, window, jobs.poff[j]!, jobs.pcnt[j]!, jobs.rowsToAdd(j, m));
      const sink = jobs.sinks[jobs.sink[j]!]!;
      if (typeof sink === 'function') sink(ref);
      else {
        sink.off[jobs.at[j]!] = ref[0];
        sink.cnt[jobs.at[j]!] = ref[1];
      }
    }
    for (const d of dictionaries) {
      d(out);
      if (out.pending > 3) await out.drain(2);
    }
    await out.drain();
    const hasLive = entities.contact.live !== undefined || entities.company.live !== undefined;
    out.finish({ version: hasLive ? INDEX_VERSION_LIVE : INDEX_VERSION, releaseId: patch.releaseId, entities });
  } finally {
    // Nothing may still read or write the files when they are closed (a failure leaves reads and writes in flight).
    await window?.settle();
    await out?.drain().catch(() => undefined);
    closeSync(pfd);
    closeSync(ofd);
  }
}
