import { AppError } from '../domain/errors/index.js';
import type { SignalKind } from './port.js';

/** Company pages below this many followers are refused (spec "Collect minimum"). */
export const MIN_FOLLOWERS = 100;
export const MAX_FOLLOWERS = 1_000_000;
/** `wait: true` is honoured only up to this estimate, and never for a company page. */
export const WAIT_MAX_ENGAGERS = 500;

export interface CollectPlan {
  /** The leads asked for: expected engagers (profile, post) or followers requested (company). */
  requested: number;
  /** Premium credits to hold before the job starts. */
  hold: number;
  /** A company collect without max_followers asks for what the credits allow. */
  maxFollowersMissing: boolean;
  /** Whether `wait: true` may keep the request open. */
  waitAllowed: boolean;
}

/**
 * The hold rule of the spec: profile and post hold twice the expected engagers; a company page holds
 * exactly the followers requested, or without max_followers min(followers, premium credits available)
 * but at least 100. A page below 100 followers answers 400 signals.below_minimum.
 */
export function planCollect(
  kind: SignalKind,
  estimate: number,
  maxFollowers: number | null,
  premiumAvailable: number,
): CollectPlan {
  if (kind !== 'network_company') {
    return {
      requested: estimate,
      hold: 2 * estimate,
      maxFollowersMissing: false,
      waitAllowed: estimate <= WAIT_MAX_ENGAGERS,
    };
  }
  if (estimate < MIN_FOLLOWERS) {
    throw new AppError(
      'signals.below_minimum',
      `The company page has ${estimate} followers; collecting followers needs at least ${MIN_FOLLOWERS}.`,
      {
        field: 'target',
        hint:
          'Choose a company page with at least 100 followers, or collect the engagers of its posts with kind ' +
          'network_post.',
        details: { followers: estimate },
      },
    );
  }
  if (maxFollowers !== null)
    return { requested: maxFollowers, hold: maxFollowers, maxFollowersMissing: false, waitAllowed: false };
  const asked = Math.max(MIN_FOLLOWERS, Math.min(estimate, premiumAvailable, MAX_FOLLOWERS));
  return { requested: asked, hold: asked, maxFollowersMissing: true, waitAllowed: false };
}

/** The `max_followers_missing` warning text. */
export function maxFollowersMissingWarning(
  requested: number,
  followers: number,
): { code: 'max_followers_missing'; message: string; hint: string } {
  return {
    code: 'max_followers_missing',
    message:
      `max_followers was not sent: ${requested} of the page's ${followers} followers are asked for, bounded by the ` +
      `premium credits available (at least 100).`,
    hint: 'Send max_followers (100 to 1,000,000) to choose how many followers to collect and hold.',
  };
}
