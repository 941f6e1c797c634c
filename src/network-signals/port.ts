/**
 * Signals: the people who engage with a profile's posts or one post, or follow a company page, read from
 * a NetworkSource (simulated network by default, or an HTTP provider) by collect jobs and alert runs, and
 * kept as signal rows in the state store (SignalStore, which StateStore extends).
 */

import type { Hold } from '../domain/credits.js';

export type SignalKind = 'network_profile' | 'network_post' | 'network_company';
export const SIGNAL_KINDS: readonly SignalKind[] = ['network_profile', 'network_post', 'network_company'];

export type Engagement = 'reaction' | 'comment' | 'follow';
export const ENGAGEMENTS: readonly Engagement[] = ['reaction', 'comment', 'follow'];

/** A validated target: the kind, the canonical URL and the slug (post/activity id) it names. */
export interface SignalTarget {
  kind: SignalKind;
  /**
   * Canonical URL: `https://<network_host>/in/<slug>`, `/posts/<slug>`, `/feed/update/urn:li:activity:<id>`,
   * `/company/<slug>`.
   */
  url: string;
  slug: string;
}

/** One person who reacted to or commented on a post, or follows a company page. */
export interface Engager {
  name: string;
  headline: string | null;
  profile_url: string;
  engagement: Engagement;
  /** The post engaged with; null for a follow. */
  post_url: string | null;
  /** When the engagement happened (RFC 3339 UTC). */
  at: string;
}

/** One batch of a collection and where to resume after it (null: the source has no more). */
export interface EngagerBatch {
  items: Engager[];
  nextCursor: string | null;
}

export interface CollectOptions {
  /** Where to start: null from the beginning, else the `nextCursor` of an earlier batch (resume). */
  cursor: string | null;
  /** Most engagers to read in all; a company collection stops at the requested followers. */
  limit: number;
  signal?: AbortSignal;
}

/**
 * Where engagers come from. `estimate` answers engagements over the 10 latest posts of a profile, on one
 * post, or the follower count of a company page; `collect` yields them in batches and can resume from a
 * cursor (a restarted job goes on where it stopped). Failures throw SourceError.
 */
export interface NetworkSource {
  readonly name: string;
  estimate(target: SignalTarget, signal?: AbortSignal): Promise<number>;
  collect(target: SignalTarget, options: CollectOptions): AsyncIterable<EngagerBatch>;
}

/**
 * A source failure with the text a user can act on. `notFound`: the network does not know the target;
 * `transient`: retrying later may help (timeouts, 5xx); otherwise the provider is misconfigured or broken.
 */
export class SourceError extends Error {
  constructor(
    message: string,
    readonly reason: 'not_found' | 'transient' | 'refused' | 'malformed',
  ) {
    super(message);
    this.name = 'SourceError';
  }
}

// ---------------------------------------------------------------------------------------------------------
// State: signal rows and alerts

export type SourceType = 'collect' | 'alert';

/** A signal row as stored (`GET /v1/signals` shows it without account_id, with `contact` parsed). */
export interface StoredSignal {
  /** Insertion order; the cursor's sort key. */
  seq: number;
  id: string;
  accountId: string;
  sourceType: SourceType;
  /** The collect job id (col_…) or the alert id (alr_…). */
  sourceId: string;
  /** The job that wrote the row: the collect job itself, or the alert run (run_…). */
  runId: string;
  name: string;
  headline: string | null;
  profileUrl: string;
  engagement: Engagement;
  postUrl: string | null;
  at: string;
  /** True when this row is the first sighting of the person for this source: a charged lead. */
  lead: boolean;
  /** The stored contact (enrichment default columns) when the engager's profile slug matched one. */
  contact: Record<string, unknown> | null;
  createdAt: string;
}

export interface NewSignal {
  /** Position in the job's source stream; a replayed batch after a restart is ignored by it. */
  position: number;
  /** Who the engager is for lead counting (the profile slug, lowercase). */
  personKey: string;
  engager: Engager;
  contact: Record<string, unknown> | null;
}

export interface SignalRun {
  accountId: string;
  sourceType: SourceType;
  sourceId: string;
  runId: string;
}

export interface AddedSignals {
  /** Rows of the batch handled (written or already there) before `maxNewLeads` stopped it. */
  accepted: number;
  written: number;
  withContact: number;
  newLeads: number;
  /** With `chargeHold`: the hold as the same step settled it (committed for `withContact`). */
  charged?: Hold;
}

/** Thrown by addSignals when its `chargeHold` is no longer held (swept, or settled): nothing was written. */
export class HoldNotHeldError extends Error {
  constructor(readonly holdId: string) {
    super(`the contact hold ${holdId} is no longer held; the batch was not written`);
    this.name = 'HoldNotHeldError';
  }
}

export interface SignalQuery {
  accountId: string;
  sourceType?: SourceType;
  sourceId?: string;
  runId?: string;
  afterSeq: number | null;
  limit: number;
}

export interface RunStats {
  signals: number;
  leads: number;
  contactsMatched: number;
}

export interface AlertRecord {
  id: string;
  accountId: string;
  kind: SignalKind;
  target: string;
  /** Minutes between scheduled runs. */
  intervalMinutes: number;
  maxFollowers: number | null;
  active: boolean;
  /** Next scheduled run (RFC 3339); null when inactive or deleted. */
  nextRunAt: string | null;
  lastRunId: string | null;
  lastRunAt: string | null;
  /** Why the last scheduled run could not start (e.g. premium credits spent); null after a run starts. */
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

export interface NewAlert {
  accountId: string;
  kind: SignalKind;
  target: string;
  intervalMinutes: number;
  maxFollowers: number | null;
  now: Date;
}

export type AlertPatch = Partial<
  Pick<
    AlertRecord,
    'intervalMinutes' | 'maxFollowers' | 'active' | 'nextRunAt' | 'lastRunId' | 'lastRunAt' | 'lastError'
  >
>;

export interface SignalStore {
  /**
   * Writes a batch of one run, in order, in one transaction. Rows whose position the run already wrote are
   * skipped (a batch replayed after a restart); a person first seen for the source becomes a lead of this
   * run. With `maxNewLeads`, writing stops before the row that would make one lead more than that.
   * With `chargeHold` (a contact hold taken for the batch's matches), the same step commits that hold for the rows
   * written with their contact, so a row is never stored with its contact uncharged (a worker killed between two
   * steps would leave it so); when the hold is no longer held it throws HoldNotHeldError and writes nothing.
   */
  addSignals(
    run: SignalRun,
    rows: readonly NewSignal[],
    now: Date,
    maxNewLeads?: number,
    chargeHold?: string,
  ): Promise<AddedSignals>;
  /** Counters of one run, read from its rows. */
  runStats(runId: string): Promise<RunStats>;
  /**
   * Forgets the leads first seen by this run (a failed or cancelled run charges none, so later runs count them again).
   */
  forgetRunLeads(runId: string): Promise<void>;
  /** Rows of an account in insertion order after `afterSeq`, filtered by source and run. */
  listSignals(q: SignalQuery): Promise<StoredSignal[]>;
  countSignals(q: Omit<SignalQuery, 'afterSeq' | 'limit'>): Promise<number>;

  /** Creates an alert; throws alerts.limit_reached when the account already has `maxActive` active alerts. */
  createAlert(input: NewAlert, maxActive: number): Promise<AlertRecord>;
  /** The alert, deleted ones included (callers hide those). */
  getAlert(id: string): Promise<AlertRecord | undefined>;
  /** An account's alerts (not deleted), newest first. */
  listAlerts(accountId: string): Promise<AlertRecord[]>;
  /** Changes an alert; turning one active throws alerts.limit_reached at `maxActive` active alerts. */
  updateAlert(id: string, patch: AlertPatch, now: Date, maxActive?: number): Promise<AlertRecord>;
  deleteAlert(id: string, now: Date): Promise<AlertRecord>;
  /** Active alerts whose next run is due at `now`, oldest due first. */
  dueAlerts(now: Date, limit: number): Promise<AlertRecord[]>;
  /**
   * Moves a due alert from slot `due` to `next` if no one else did (compare and set): of several
   * schedulers on one data dir, only the one that wins the slot starts the run.
   */
  claimAlertSlot(id: string, due: string, next: string, now: Date): Promise<boolean>;
}
