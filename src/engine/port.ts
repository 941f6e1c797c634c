import type { Entity } from '../domain/catalog/index.js';
import type { IRNode } from '../domain/query/ir.js';
import type { Suppression } from '../domain/suppression.js';

export type { Suppression } from '../domain/suppression.js';

/*
 * Words used across the engines, one meaning each:
 * - data release (or release): one immutable load of contacts and companies (ReleaseInfo). The answers' build
 *   label (JSON `release`, operations/invoke.ts buildLabel) names the build and the release; releasing a credit
 *   hold is `releaseHold` in the state store.
 * - lookup column: a catalog column flagged `lookup` (work_email, the phones, profile slugs, company domain and
 *   normalized name): an identifier a caller asks by.
 * - point read: a query that is an OR of `eq` / `in` leaves on lookup columns (enrichment, the family B lookup
 *   routes); an engine answers it by key, never by a scan.
 * - point store: the embedded engine's per-release row store beside the DuckDB file that answers point reads
 *   (engine/duckdb/point-store): a key table per lookup column and one card per contact.
 * - card: one contact's columns kept for point reads and index pages (catalog CONTACT_CARD_COLUMNS).
 * - index: the embedded engine's per-release bitmap index (engine/duckdb/bitmap-index): posting lists of the
 *   values filters select on; a query whose every leaf it can answer is counted and paged from it, the rest scan.
 */

/** A data release: one immutable load of contacts and companies. */
export interface ReleaseInfo {
  id: string;
  createdAt: string;
  contacts: number;
  companies: number;
  /** Source dump files and counts of skipped rows, for the operator. */
  source?: Record<string, unknown>;
}

/**
 * The serving release changed: the first release a process serves (`from` null), or a switch to a newer (or rolled
 * back) one. Engines tell their owner through an `onReleaseSwitch` option; they log nothing themselves.
 */
export interface ReleaseSwitch {
  from: ReleaseInfo | null;
  to: ReleaseInfo;
}

/** Whether point reads (enrichment, lookups) use the engine's point index, and why not when they don't. */
export interface PointReadsState {
  ok: boolean;
  note?: string;
}

/** Whether counts and pages use the release's search index, and why not when they don't. */
export type IndexState = PointReadsState;

export interface EngineHealth {
  ok: boolean;
  release: ReleaseInfo | null;
  error?: string;
  pointReads?: PointReadsState;
  index?: IndexState;
}

export interface ValueCount {
  value: string;
  count: number;
}

export interface QueryRequest {
  /** Who asks (an account id): the engine shares itself fairly between tenants, so none takes it all. */
  tenant?: string;
  /** Count the matches within this budget (ms); past it `count` is null. Omit to skip counting. */
  countBudgetMs?: number;
  /** Fetch a page in the stable order (sort_key ascending) after `afterSortKey`. */
  page?: {
    columns: readonly string[];
    afterSortKey: number | null;
    limit: number;
    budgetMs: number;
    offset?: number;
    /**
     * The caller takes the rows as JSON text (QueryResult.json) where the engine holds them so: the embedded engine's
     * index pages read from the point store's cards, which are JSON already. Engines that do not answer `json` answer
     * rows as usual.
     */
    json?: boolean;
  };
}

/**
 * Rows as JSON (QueryResult.json): their objects one after another, a comma between each two, so the first k rows are
 * `bytes` up to `ends[k - 1]`: what goes between the brackets of an answer's `data`.
 */
export interface JsonPage {
  bytes: Uint8Array;
  /** Where each row's object ends in `bytes` (exclusive). */
  ends: readonly number[];
}

export interface QueryResult {
  /** Release the answer came from. */
  releaseId: string;
  /** null when the count passed its budget, or was not asked for. */
  count: number | null;
  countTimedOut: boolean;
  /** Page rows with `sort_key`, ascending. */
  rows: Record<string, unknown>[];
  /**
   * Only when the page asked for `json` and the engine answered so: the rows' `columns`, each row one JSON object in
   * the order asked (what JSON.stringify would make of the row without `sort_key`), as UTF-8 bytes; `rows` then hold
   * only `sort_key`.
   */
  json?: JsonPage;
}

/** What an export would hold (`exportCount`). */
export interface ExportCount {
  releaseId: string;
  /** Rows matching the query. */
  matches: number;
  /** Rows left after the per-company cap (equal to `matches` without one). */
  capped: number;
}

/** One bulk CSV export (`exportCsv`): RFC 4180, UTF-8, CRLF, header row, in the release's stable order. */
export interface CsvExportRequest {
  /** Output columns in order, with the header text of each (column names for family A, labels for B). */
  columns: ReadonlyArray<{ name: string; header: string }>;
  /** At most this many rows. */
  maxRows: number;
  /** At most this many rows per `company_domain` (rows without one are not capped); null = no cap. */
  maxPerCompany: number | null;
  /** File to create or replace; on failure it may be left behind for the caller to delete. */
  file: string;
  /** Rows fetched and written per engine query. */
  batchRows: number;
  /** Time budget of each batch query (ms). */
  budgetMs: number;
  /** Called after each batch is on disk with the rows written so far; a throw stops the export. */
  onBatch?(rowsWritten: number): void | Promise<void>;
}

export interface CsvExportResult {
  releaseId: string;
  rows: number;
  bytes: number;
}

/**
 * SearchEngine port (ARCHITECTURE rule 2: engines compile the Query IR; nothing else builds SQL/DSL).
 * Implemented by engine/duckdb (embedded default) and engine/elasticsearch (scale-out).
 */
export interface SearchEngine {
  /** The release now serving, or null when none is loaded. */
  release(): ReleaseInfo | null;
  health(): Promise<EngineHealth>;
  /** Distinct stored values of a column with their row counts, most frequent first; `q` filters by substring. */
  distinctValues(entity: Entity, column: string, q: string | null, limit: number): Promise<ValueCount[]>;
  /** Rows in the release and, per public column, rows holding a value; cached per release. */
  populatedCounts(entity: Entity): Promise<{ rows: number; columns: Record<string, number> }>;
  /** Count and/or one keyset page of a query, both on the same release. */
  query(entity: Entity, where: IRNode, req: QueryRequest): Promise<QueryResult>;
  /** Counts an export's rows (matches, and what a per-company cap keeps) within `budgetMs` (query.timeout past it). */
  exportCount(
    entity: Entity,
    where: IRNode,
    req: { maxPerCompany: number | null; budgetMs: number; tenant?: string },
  ): Promise<ExportCount>;
  /**
   * Writes the matching rows to a CSV file in bulk, on one pinned release. Text, list and record cells are
   * neutralized against spreadsheet formula injection by the rule of domain/text/csv-cell.ts (a leading `'` before
   * `=`, `+`, `-`, `@`, tab or CR; a cell that is exactly a plain number, such as an E.164 phone, is written as is).
   */
  exportCsv(entity: Entity, where: IRNode, req: CsvExportRequest): Promise<CsvExportResult>;
  /**
   * Replaces the suppression list (opt-outs, domain/suppression.ts): once it resolves, every read leaves the
   * contacts it matches out (counts, pages, point reads, exports, distinct values, populated counts, companies'
   * contact counts), as if the release did not hold them; a running export applies it from its next batch. The
   * engine resolves the list against the serving release now and against every release it switches to before that
   * one serves. Answers how many contacts of the serving release it suppresses. The empty list lifts it.
   */
  setSuppression(s: Suppression): Promise<{ contacts: number }>;
  close(): Promise<void>;
}
