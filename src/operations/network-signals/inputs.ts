import * as v from 'valibot';
import { AppError } from '../../domain/errors/index.js';
import { MAX_FOLLOWERS, MIN_FOLLOWERS } from '../../network-signals/plan.js';
import { SIGNAL_KINDS } from '../../network-signals/port.js';
import {
  DEFAULT_INTERVAL_MINUTES,
  MAX_INTERVAL_MINUTES,
  MIN_INTERVAL_MINUTES,
} from '../../network-signals/schedule.js';
import { intParam, text } from '../schemas.js';

export const kindMember = v.pipe(
  v.picklist(SIGNAL_KINDS, `must be one of ${SIGNAL_KINDS.join(', ')}`),
  v.description(
    'network_profile: reactions and comments on the 10 latest posts of a profile; network_post: on one post; ' +
      'network_company: followers of a company page.',
  ),
);

export const targetMember = text(
  'Profile URL https://<network_host>/in/<slug>, post URL https://<network_host>/posts/<slug> or ' +
    'https://<network_host>/feed/update/urn:li:activity:<id>, or company URL https://<network_host>/company/<slug>.',
  2048,
);

export const maxFollowersMember = intParam(
  MIN_FOLLOWERS,
  MAX_FOLLOWERS,
  'Company kind only: followers to collect and hold premium credits for (100 to 1,000,000).',
);

export const scheduleMember = v.pipe(
  v.object({
    interval_minutes: v.optional(
      intParam(MIN_INTERVAL_MINUTES, MAX_INTERVAL_MINUTES, 'Minutes between runs: 60 (hourly) to 43,200 (30 days).'),
      DEFAULT_INTERVAL_MINUTES,
    ),
  }),
  v.description(
    'When the alert re-collects its target: every interval_minutes (default 1,440, daily), counted from its first run.',
  ),
);

export const idMember = text('The id.', 100);

/** max_followers is a company-only member. */
export function checkMaxFollowers(kind: string, maxFollowers: number | null | undefined): void {
  if (maxFollowers !== undefined && maxFollowers !== null && kind !== 'network_company') {
    throw new AppError('request.invalid', 'max_followers applies only to kind network_company.', {
      field: 'max_followers',
      hint: 'Leave max_followers out for profiles and posts: their hold is twice the expected engagers.',
    });
  }
}
