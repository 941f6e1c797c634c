/**
 * The ReleaseWriter port: how the loader writes a new data release into an engine, without knowing which. The
 * loader's workers normalize dump rows into staged-row files (JSON Lines of catalog columns, src/domain/catalog
 * employer-columns.ts names them); the writer takes the files in, drops rejected and duplicate rows, builds the
 * release (the employer joined onto each contact, `sort_key` in id order), and publishes it atomically: until
 * `publish` returns, the previous release keeps serving, and `abort` leaves no trace.
 *
 * The embedded engine's writer is src/engine/duckdb/release-writer (a DuckDB file with its point store); the
 * Elasticsearch loader implements the same port.
 */

import type { OptOutType } from '../domain/optouts.js';
import type { Suppression } from '../domain/suppression.js';

/** Staged rows of one kind, taken in file by file. */
export interface StagedRows {
  /** Queues a file (deleted once it is in); resolves when the file before it is in, bounding what waits. */
  addFile(file: string): Promise<void>;
  /** Resolves when every queued file is in; rejects with the first failure. */
  finish(): Promise<void>;
}

/** A staged person whose id appears again with a later `updated_at`: its line loses to `winnerLine`. */
export interface Duplicate {
  line: number;
  id: string;
  winnerLine: number;
}

/**
 * People a load dropped because a suppression list matched them, counted under the first identifier type that
 * matched (domain/suppression.ts SUPPRESSION_TYPES order: id, email, phone, url, sha256), so the types add up.
 */
export interface SuppressedPeople {
  people: number;
  byType: Record<OptOutType, number>;
}

/** What a published release records about itself. */
export interface ReleaseSource {
  peopleFile: string;
  companiesFile: string;
  skipped: { people: number; companies: number };
  /** People the suppression list dropped (absent for a release loaded without one). */
  suppressed?: SuppressedPeople;
  asOf: string;
  networkHost: string;
}

/** Progress of a long step: units done of the total, and which part of the step when it has several. */
export type StepFn = (done: number, total: number, part?: string) => void;

export interface ReleaseWriter {
  readonly releaseId: string;
  /** A folder for the staged-row files; removed when the writer publishes or aborts. */
  readonly stagingDir: string;
  /** Where the loader writes this release's rejected rows. */
  readonly rejectsFile: string;
  readonly companies: StagedRows;
  readonly people: StagedRows;
  /** Staged people whose id appears again with a later `updated_at` (a tie goes to the later line). */
  duplicatePeople(): Promise<Duplicate[]>;
  /** Removes staged rows by their line. */
  drop(kind: 'people' | 'companies', lines: readonly number[]): Promise<void>;
  /**
   * Removes the staged people a suppression list matches (the engines' rules: id, every email and phone column,
   * profile slug, SHA-256 of each email and phone value), so the release never holds them and companies' contact
   * counts leave them out; call it after duplicates are dropped (it judges the row that would be published).
   */
  suppress(list: Suppression): Promise<SuppressedPeople>;
  /** Writes the final companies and contacts from the staged rows; returns their counts. */
  build(onStep?: StepFn): Promise<{ contacts: number; companies: number }>;
  /** Writes what point reads use, records the release, and makes it the serving one atomically. */
  publish(source: ReleaseSource, onStep?: StepFn): Promise<{ createdAt: string }>;
  /** Leaves the previous release serving and removes everything this writer wrote. */
  abort(): Promise<void>;
}

/** What a load asks of the release it writes, beyond its rows. */
export interface ReleaseWriterOptions {
  /**
   * Keep every public column of each contact ready for point reads (`columns: ["*"]` in enrichment and lookups),
   * not only the card's: the embedded engine's full cards (about four times the cards' disk).
   */
  fullCards?: boolean;
}

/** Opens a writer for a new release in a data dir (chosen once, in loaders/load/writers.ts). */
export type OpenReleaseWriter = (dataDir: string, opts?: ReleaseWriterOptions) => Promise<ReleaseWriter>;
