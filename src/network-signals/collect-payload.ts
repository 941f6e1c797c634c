import type { SignalKind, SourceType } from './port.js';

/** What a collect job or alert run is asked to do (the job payload). */
export interface CollectPayload {
  kind: SignalKind;
  /** Canonical target URL. */
  target: string;
  slug: string;
  /** The leads asked for (status `requested`); for a company also the most followers read. */
  requested: number;
  alertId: string | null;
  sourceType: SourceType;
  /** Where the rows are filed: the job id (collect) or the alert id (alert run). */
  sourceId: string;
}

/** Why a run stopped (`scrape_outcome.reason`). */
export type ScrapeReason =
  | 'source_exhausted'
  | 'limit_reached'
  | 'hold_exhausted'
  | 'no_engagers'
  | 'source_error'
  | 'cancelled';

/** Progress and outcome of a run (the job result). */
export interface CollectResult {
  cursor?: string | null;
  /** Engagers read from the source so far (their positions are 0 .. position-1). */
  position?: number;
  /** The source was read to its end (or to the limit); only settling is left. */
  done?: boolean;
  signals?: number;
  leads?: number;
  contacts_matched?: number;
  /** Matched rows kept without their contact because contact credits ran out. */
  contacts_skipped?: number;
  /** Detailed end state of a completed job. */
  outcome?: 'completed' | 'partial' | 'no_matches';
  charged?: number;
  scrape_outcome?: {
    source: string;
    reason: ScrapeReason;
    engagers_read: number;
    contact_credits_exhausted: boolean;
    contacts_skipped: number;
  };
}
