import type { Suppression } from '../../src/domain/suppression.js';
import type { DeltaCounts, OpenReleaseWriter, SuppressedPeople } from '../../src/engine/release-writer.js';

/** Public shapes of the loader: options, progress events and the report `cds load` prints. */

export interface ProgressEvent {
  /** `companies` / `people`: reading dumps (done/total in bytes); `build`, `write`: steps of the release. */
  phase: string;
  done: number;
  total: number;
}

export type ProgressFn = (e: ProgressEvent) => void;

export interface LoadOptions {
  dataDir: string;
  peopleFile: string;
  companiesFile: string;
  /** Throw on the first bad row instead of skipping it; the previous release keeps serving. */
  strict?: boolean;
  /** Reference time of the computed signals (default now). */
  asOf?: Date;
  /** Host of the professional network in profile URLs (default network.com). */
  networkHost?: string;
  onProgress?: ProgressFn;
  /** The engine's release writer (default: the embedded engine's, loaders/load/writers.ts). */
  openWriter?: OpenReleaseWriter;
  /** Keep every public column ready for point reads (ReleaseWriterOptions.fullCards; `cds load --full-cards`). */
  fullCards?: boolean;
  /**
   * The suppression list (opt-outs, state store `allOptOuts`, domain/suppression.ts suppressionOf): people it
   * matches are dropped, so the new release never holds them; the report counts them by identifier type.
   */
  suppression?: Suppression;
  /**
   * The people file is still being written (a seed's dumps, generated on another thread, loaders/seed.ts): it is read
   * as it grows until this settles; a rejection fails the load.
   */
  peopleWriting?: Promise<void>;
}

export interface Reject {
  file: string;
  /** 1-based line of the row in its file (first line of a multi-line CSV record). */
  line: number;
  reason: string;
}

export interface LoadReport {
  releaseId: string;
  contacts: number;
  companies: number;
  skipped: { people: number; companies: number };
  /** The first 100 rejects; all of them are in `rejectsFile`. */
  rejects: Reject[];
  rejectsFile: string;
  /** Values dropped during normalization (not row rejects): unknown industry labels and the like. */
  dropped: { industries: number };
  /** Valid people left out because the suppression list matches them, by the first identifier type that matched. */
  suppressed: SuppressedPeople;
  /**
   * A delta load: the release it was built from, its rows that replaced a row of it or were added (after rejects and
   * duplicates; suppression is counted in `suppressed`), and the people its deletes file removed or did not find;
   * `patched`: written by patching a copy of the parent (false: rebuilt from every row, `--rebuild` or a parent that
   * cannot be patched).
   */
  delta?: { parent: string; patched: boolean } & DeltaCounts;
  ms: number;
}

/** A delta load (`cds load --delta`): changed records and deletions applied to the serving release. */
/**
 * A delta load's options: `peopleFile` holds new or changed people only. No `asOf` or `networkHost`: a delta takes
 * its base release's, so its rows are normalized as the base's were.
 */
export interface DeltaOptions extends Omit<LoadOptions, 'companiesFile' | 'asOf' | 'networkHost' | 'peopleWriting'> {
  /** Companies that are new or changed (optional). */
  companiesFile?: string;
  /** Person ids to remove (deletes-file.ts: one id a line, or JSON Lines with person_id). */
  deletesFile?: string;
  /** Build the release from every row instead of patching the serving one (positions in id order again). */
  rebuild?: boolean;
}

export const DEFAULT_NETWORK_HOST = 'network.com';
