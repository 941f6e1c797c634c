import { Worker } from 'node:worker_threads';
import { type Leaf, leafValues } from '../../../domain/query/ir.js';
import { cardCovers, type RenderedCards } from './layout.js';
import { type CardKind, type CardRow, cardsJsonPage, cardsPage, PointStore } from './point-store.js';

export interface ReaderInit {
  file: string;
  release: { id: string; contacts: number; positions?: number };
}
export type ReaderRequest =
  | { id: number; kind: CardKind; leaves: Leaf[] }
  | { id: number; kind: CardKind; sortKeys: number[] };
export type ReaderMessage = ReaderRequest | { close: true };
export type ReaderReply =
  | { ready: true }
  | { ready: false; reason: string }
  | { id: number; rows: CardRow[] }
  | { id: number; error: string };

export type PointReadersOpening = { readers: PointReaders; reason?: undefined } | { readers: null; reason: string };

interface Reader {
  worker: Worker;
  pending: Map<number, { resolve: (rows: CardRow[]) => void; reject: (e: Error) => void }>;
  exited: Promise<void>;
}

/** Pages of cards up to this many rows are read on the calling thread (cards()). */
const CARDS_INLINE = 1001;

/** How long a reader may take to finish its lookups and stop before it is terminated. */
const STOP_GRACE_MS = 5000;

/**
 * The reader threads of a release's point store. A point read splits its identifiers over the threads,
 * each with its own connection, so their page reads overlap: on a page cache that does not hold the store
 * (after a restart, or a machine that reclaims idle file pages) each identifier costs disk reads, and one
 * thread would wait for them one after another (measured at 10 M contacts: 90 emails in 11.2 ms on one
 * reader, 5.6 ms on four). Threads hold the process open while they start, stop, or answer a lookup.
 */
export class PointReaders {
  private nextId = 0;
  private closing: Promise<void> | null = null;

  private constructor(
    private readonly readers: Reader[],
    readonly layout: readonly string[],
    /** The full cards' layout, in a store written with them (`columns: ["*"]` reads them). */
    readonly fullLayout: readonly string[] | null,
    private readonly keyColumns: ReadonlySet<string>,
    /** This thread's own connection, for small pages of cards (cards()). */
    private inline: PointStore | null,
  ) {}

  /** Starts `count` readers on the store of a release; null with the reason when it cannot be used. Never throws. */
  static async open(
    file: string,
    release: { id: string; contacts: number; positions?: number },
    count: number,
  ): Promise<PointReadersOpening> {
    // Checked here first, so a missing or foreign store costs no thread.
    const probe = PointStore.open(file, release);
    if (!probe.store) return { readers: null, reason: probe.reason };
    const { layout, fullLayout, keyColumns } = probe.store;
    const readers: Reader[] = [];
    const pool = new PointReaders(readers, layout, fullLayout, new Set(keyColumns), probe.store);
    let failed: string | null | undefined;
    try {
      const started = await Promise.all(
        Array.from({ length: count }, () => {
          const worker = new Worker(new URL('./reader-worker.js', import.meta.url), {
            workerData: { file, release } satisfies ReaderInit,
          });
          readers.push({
            worker,
            pending: new Map(),
            exited: new Promise((resolve) => worker.once('exit', () => resolve())),
          });
          return new Promise<string | null>((resolve) => {
            worker.once('message', (m: ReaderReply) => resolve('ready' in m && !m.ready ? m.reason : null));
            worker.once('error', (e) => resolve(`point reader failed: ${e.message}`));
          });
        }),
      );
      failed = started.find((r) => r !== null);
    } catch (e) {
      failed = `point readers could not start: ${(e as Error).message}`;
    }
    if (failed) {
      await pool.close();
      return { readers: null, reason: failed };
    }
    for (const r of readers) {
      pool.listen(r);
      // Idle from now on: a reader holds the process open only while a lookup is in flight.
      r.worker.unref();
    }
    return { readers: pool };
  }

  /** Which cards hold these columns: the cards when they do, else the full cards when the store has them. */
  private kindFor(columns: readonly string[]): CardKind | null {
    if (cardCovers(this.layout, columns)) return 'card';
    return cardCovers(this.fullLayout, columns) ? 'full' : null;
  }

  private layoutOf(kind: CardKind): readonly string[] {
    return kind === 'full' && this.fullLayout ? this.fullLayout : this.layout;
  }

  /** True when the store can answer a point read of these leaves (point-read-leaves.ts) for these columns. */
  answers(leaves: readonly Leaf[], columns: readonly string[]): boolean {
    return this.kindFor(columns) !== null && leaves.every((l) => this.keyColumns.has(l.field));
  }

  /**
   * The page a point read answers (cardsPage), of the contacts `keep` accepts (all without it: suppressed contacts are
   * left out before the limit); rejects when a reader fails (the caller falls back to the release).
   */
  async read(
    leaves: readonly Leaf[],
    columns: readonly string[],
    limit: number,
    keep?: (sortKey: number) => boolean,
  ): Promise<Record<string, unknown>[]> {
    const kind = this.kindFor(columns);
    if (!kind) throw new Error('the point store holds none of these columns');
    const n = this.readers.length;
    const shares = this.readers.map((_, k) =>
      leaves
        .map((l) => ({ field: l.field, op: 'in' as const, value: leafValues(l).filter((_, i) => i % n === k) }))
        .filter((l) => l.value.length > 0),
    );
    // Every part settles before a failure is reported: no reader of this read is still busy when the
    // caller closes the readers.
    const parts = await Promise.allSettled(
      shares.map((share, k) =>
        share.length > 0 ? this.ask(this.readers[k]!, kind, { leaves: share }) : Promise.resolve([]),
      ),
    );
    const failed = parts.find((p) => p.status === 'rejected');
    if (failed) throw failed.reason;
    return cardsPage(
      parts.map((p) => (p as PromiseFulfilledResult<CardRow[]>).value),
      this.layoutOf(kind),
      columns,
      limit,
      keep,
    );
  }

  /** True when the cards (or the full cards) hold these columns. */
  covers(columns: readonly string[]): boolean {
    return this.kindFor(columns) !== null;
  }

  /**
   * The rows of these contacts (ascending sort keys, as an index page names them) decoded to `columns`; rejects when
   * a reader fails.
   */
  async cards(sortKeys: readonly number[], columns: readonly string[]): Promise<Record<string, unknown>[]> {
    const { kind, parts } = await this.cardParts(sortKeys, columns);
    return cardsPage(parts, this.layoutOf(kind), columns, sortKeys.length);
  }

  /**
   * The same cards written as the JSON objects of `columns` (renderCards), a page of up to CARDS_INLINE read on this
   * thread in one statement (PointStore.cardsJson); rejects when a reader fails.
   */
  async cardsJson(sortKeys: readonly number[], columns: readonly string[]): Promise<RenderedCards> {
    const kind = this.kindFor(columns);
    if (!kind) throw new Error('the point store holds none of these columns');
    if (this.inline && !this.closing && sortKeys.length <= CARDS_INLINE)
      return this.inline.cardsJson(sortKeys, columns, kind);
    const { parts } = await this.cardParts(sortKeys, columns);
    return cardsJsonPage(parts, this.layoutOf(kind), columns, sortKeys.length);
  }

  private async cardParts(
    sortKeys: readonly number[],
    columns: readonly string[],
  ): Promise<{ kind: CardKind; parts: CardRow[][] }> {
    const kind = this.kindFor(columns);
    if (!kind) throw new Error('the point store holds none of these columns');
    // A page of up to CARDS_INLINE rows is read on this thread (primary-key reads of cached pages), sparing the
    // round trip to a reader thread. Bigger pages (family B's 5,000 rows, from-person's employees of 100 companies)
    // are split over the readers, whose reads and copies back overlap: at 1 M contacts 7,000 cards took about 20 %
    // less than on one reader, interleaved runs on 2 cores.
    if (this.inline && !this.closing && sortKeys.length <= CARDS_INLINE)
      return { kind, parts: [this.inline.cards(sortKeys, kind)] };
    const size = Math.ceil(sortKeys.length / this.readers.length);
    // Every part settles before a failure is reported, as in read().
    const parts = await Promise.allSettled(
      this.readers.map((r, k) => this.ask(r, kind, { sortKeys: sortKeys.slice(k * size, (k + 1) * size) })),
    );
    const failed = parts.find((p) => p.status === 'rejected');
    if (failed) throw failed.reason;
    return { kind, parts: parts.map((p) => (p as PromiseFulfilledResult<CardRow[]>).value) };
  }

  private ask(reader: Reader, kind: CardKind, what: { leaves: Leaf[] } | { sortKeys: number[] }): Promise<CardRow[]> {
    if (this.closing) return Promise.reject(new Error('the point readers are closed'));
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      if (reader.pending.size === 0) reader.worker.ref();
      reader.pending.set(id, { resolve, reject });
      const msg: ReaderRequest =
        'leaves' in what ? { id, kind, leaves: what.leaves } : { id, kind, sortKeys: what.sortKeys };
      reader.worker.postMessage(msg);
    });
  }

  private listen(reader: Reader): void {
    const settle = (
      id: number,
      fn: (p: { resolve: (rows: CardRow[]) => void; reject: (e: Error) => void }) => void,
    ): void => {
      const p = reader.pending.get(id);
      if (!p) return;
      reader.pending.delete(id);
      if (reader.pending.size === 0) reader.worker.unref();
      fn(p);
    };
    reader.worker.on('message', (m: ReaderReply) => {
      if ('rows' in m) settle(m.id, (p) => p.resolve(m.rows));
      else if ('error' in m) settle(m.id, (p) => p.reject(new Error(m.error)));
    });
    const fail = (e: Error): void => {
      for (const id of [...reader.pending.keys()]) settle(id, (p) => p.reject(e));
    };
    reader.worker.on('error', fail);
    reader.worker.on('exit', (code) => fail(new Error(`point reader exited (${code})`)));
  }

  /** Stops every reader once the lookups sent to it are answered; new reads reject. */
  close(): Promise<void> {
    this.inline?.close();
    this.inline = null;
    this.closing ??= Promise.all(this.readers.map((r) => stop(r))).then(() => undefined);
    return this.closing;
  }
}

function stop(reader: Reader): Promise<void> {
  // A reader that failed to start has exited already: the message is dropped and `exited` is settled.
  const grace = setTimeout(() => void reader.worker.terminate(), STOP_GRACE_MS);
  grace.unref();
  // Held open until it has stopped: whoever awaits close() must see it finish.
  reader.worker.ref();
  reader.worker.postMessage({ close: true } satisfies ReaderMessage);
  return reader.exited.finally(() => clearTimeout(grace));
}
