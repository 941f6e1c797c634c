import type { Entity } from '../domain/catalog/index.js';
import type { IRNode } from '../domain/query/ir.js';

/** A data release: one immutable load of contacts and companies. */
export interface ReleaseInfo {
  id: string;
  createdAt: string;
  contacts: number;
  companies: number;
  /** Source dump files and counts of skipped rows, for the operator. */
  source?: Record<string, unknown>;
}

export interface EngineHealth {
  ok: boolean;
  release: ReleaseInfo | null;
  error?: string;
}

export interface ValueCount {
  value: string;
  count: number;
}

export interface QueryRequest {
  /** Count the matches within this budget (ms); past it `count` is null. Omit to skip counting. */
  countBudgetMs?: number;
  /** Fetch a page in the stable order (sort_key ascending) after `afterSortKey`. */
  page?: { columns: readonly string[]; afterSortKey: number | null; limit: number; budgetMs: number; offset?: number };
}

export interface QueryResult {
  /** Release the answer came from. */
  releaseId: string;
  /** null when the count passed its budget, or was not asked for. */
  count: number | null;
  countTimedOut: boolean;
  /** Page rows with `sort_key`, ascending. */
  rows: Record<string, unknown>[];
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
  /** Count and/or one keyset page of a query, both on the same release. */
  query(entity: Entity, where: IRNode, req: QueryRequest): Promise<QueryResult>;
  close(): Promise<void>;
}
