import { AppError } from '../errors/index.js';

/**
 * Saved audiences: a name and a family A contact filter, with the count recorded for each data release the audience
 * was counted on (its history). Every lookup names the owning account, so another account's id is simply unknown.
 */

/** One counted release: the latest count of the audience on that release (a later count of it replaces it). */
export interface AudiencePoint {
  release: string;
  count: number;
  countedAt: string;
}

export interface Audience {
  id: string;
  accountId: string;
  name: string;
  description: string | null;
  /** The filter exactly as validated by count's filter parser when it was saved. */
  filter: Record<string, unknown>;
  /** Bumped by every change of the filter; a count started before the change is not recorded after it. */
  filterVersion: number;
  createdAt: string;
  updatedAt: string;
  /** One point per release, oldest first (by counted_at); a new filter starts an empty history. */
  history: AudiencePoint[];
}

export interface AudiencePatch {
  name?: string;
  description?: string | null;
  filter?: Record<string, unknown>;
}

/** The StateStore's part for saved audiences (both adapters; test/state/conformance.ts checks them alike). */
export interface AudienceStore {
  /** Saves an audience unless the account already holds `max` (409 audiences.limit_reached); check and insert are atomic. */
  createAudience(
    accountId: string,
    input: { name: string; description: string | null; filter: Record<string, unknown>; now: Date },
    max: number,
  ): Promise<Audience>;
  getAudience(accountId: string, id: string): Promise<Audience | undefined>;
  /** Every audience of the account, newest first (created_at, then id, descending). */
  listAudiences(accountId: string): Promise<Audience[]>;
  /** Applies the members given; a new filter bumps filterVersion and clears the history. Undefined when unknown. */
  updateAudience(accountId: string, id: string, patch: AudiencePatch, now: Date): Promise<Audience | undefined>;
  /** True when it existed (and is now gone with its history). */
  deleteAudience(accountId: string, id: string): Promise<boolean>;
  /**
   * Records the count of the audience on a release (replacing that release's point) when its filter is still at
   * `filterVersion`; answers the audience as it is now (undefined when unknown).
   */
  recordAudienceCount(
    accountId: string,
    id: string,
    filterVersion: number,
    point: AudiencePoint,
  ): Promise<Audience | undefined>;
}

/** History points oldest first: by counted_at, then release. */
export function sortHistory(points: AudiencePoint[]): AudiencePoint[] {
  return points.sort((a, b) =>
    a.countedAt < b.countedAt ? -1 : a.countedAt > b.countedAt ? 1 : a.release < b.release ? -1 : 1,
  );
}

/** Audiences newest first: created_at, then id, descending (the order every adapter answers). */
export function sortNewestFirst<T extends { createdAt: string; id: string }>(rows: T[]): T[] {
  return rows.sort((a, b) =>
    a.createdAt > b.createdAt ? -1 : a.createdAt < b.createdAt ? 1 : a.id > b.id ? -1 : a.id < b.id ? 1 : 0,
  );
}

/** 409 audiences.limit_reached: the account already holds `max` saved audiences. */
export function audiencesLimitError(held: number, max: number): AppError {
  return new AppError(
    'audiences.limit_reached',
    `The account holds ${held} saved audiences; at most ${max} may be saved.`,
    {
      hint: 'Delete an audience you no longer use (DELETE /v1/audiences/{id}), then save this one.',
      details: { max },
    },
  );
}
