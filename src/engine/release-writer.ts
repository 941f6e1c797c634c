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
  /** Null for a delta load without a companies file. */
  companiesFile: string | null;
  /** `delta`: built from its parent release plus changed records (absent on releases of earlier versions: full). */
  kind?: 'full' | 'delta';
  /** The release a delta was built from. */
  parent?: string;
  /** A delta's deletes file and what it removed. */
  deletesFile?: string | null;
  deleted?: { people: number; notFound: number };
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
  /**
   * Delta loads (absent: the engine's writer builds full releases only). The serving release this writer can
   * build on, or null when none serves; see DeltaBase.
   */
  deltaBase?(): Promise<DeltaBase | null>;
}

/** An employer as the serving release holds it: what a person row needs of it (loaders/load/company-row.ts). */
export interface BaseEmployer {
  id: string;
  name: string;
  domain: string | null;
  nameNorm: string | null;
  isPublic: boolean;
}

/**
 * The serving release a delta load builds on. The delta's rows are staged first (as a full load stages its rows);
 * `stageRest` then stages every row of the base release that the delta does not replace or delete, so `build` runs
 * over exactly the rows a full load of the merged dumps would stage.
 */
export interface DeltaBase {
  id: string;
  /** The base release's reference time and network host: the delta's rows are normalized with them. */
  asOf: string;
  networkHost: string;
  /**
   * The release's employers as JSON arrays of BaseEmployer (each of a bounded size: a JS string holds at most 2^29
   * characters): a million of them cross to the load's worker threads as a few strings made by the engine, rather than
   * as a million objects read value by value. `companyIds`: only those companies (the ones the delta's people name;
   * a 1 % delta at 10 M contacts names about a tenth of the million); every company when omitted.
   */
  employers(companyIds?: readonly string[]): Promise<string[]>;
  /**
   * Stages the base release's companies and people that are not staged already (upserts win), leaving out the
   * deleted person ids (also dropped from the staged delta); counts the deleted ids found and not found. Refuses
   * (DeltaRefused) when a staged company changes a field that people's own rows carry (name, domain, public status)
   * for base people the delta does not restate.
   */
  stageRest(deletes: readonly string[]): Promise<DeltaCounts>;
  /**
   * Instead of stageRest, suppression and build: writes the new release by patching a copy of the base (only the rows
   * the delta touches are written; a row keeps its position, new rows follow the base's last, and the suppression
   * list applies to every row). Null when this base cannot be patched (then stageRest and build run). Engines without
   * it always rebuild.
   */
  patch?(
    deletes: readonly string[],
    suppression: Suppression | undefined,
    onStep?: (done: number, total: number) => void,
  ): Promise<PatchedDelta | null>;
}

/** A delta written by DeltaBase.patch: what stageRest and build would have answered, and the people suppressed. */
export interface PatchedDelta {
  delta: DeltaCounts;
  suppressed: SuppressedPeople;
  contacts: number;
  companies: number;
}

/** What a delta changed: its staged rows that replace a base row or are new, and the deleted ids found or not. */
export interface DeltaCounts {
  people: { replaced: number; added: number };
  companies: { replaced: number; added: number };
  deleted: number;
  notFound: number;
}

/** A delta load that cannot be done as asked (no serving release, an engine without deltas, bad input). */
export class DeltaRefused extends Error {}

/** What a load asks of the release it writes, beyond its rows. */
export interface ReleaseWriterOptions {
  /**
   * Keep every public column of each contact ready for point reads (`columns: ["*"]` in enrichment and lookups),
   * not only the card's: the embedded engine's full cards (about four times the cards' disk).
   */
  fullCards?: boolean;
  /** A delta load builds its release from every row (positions in id order again) instead of patching its base. */
  rebuild?: boolean;
}

/** Opens a writer for a new release in a data dir (chosen once, in loaders/load/writers.ts). */
export type OpenReleaseWriter = (dataDir: string, opts?: ReleaseWriterOptions) => Promise<ReleaseWriter>;
