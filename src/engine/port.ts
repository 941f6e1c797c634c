import type { Entity } from '../domain/catalog/index.js';

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
  close(): Promise<void>;
}
