import type { ClosedList } from '../types.js';

export const SIGNALS: ClosedList = {
  name: 'signals',
  description: 'Profile signals on the contact record: career events computed at load.',
  values: [
    { slug: 'one_year_at_company', label: 'One year at company' },
    { slug: 'new_in_role_90d', label: 'New in role (90 days)' },
    { slug: 'recent_job_change', label: 'Recent job change' },
    { slug: 'founder', label: 'Founder' },
    { slug: 'at_public_company', label: 'At a public company' },
  ],
};

/** Email status; family B labels are the upper-case forms (never `verified`). */
export const EMAIL_STATUS: ClosedList = {
  name: 'email_status',
  description: 'Deliverability status of the work email, from the data source.',
  values: [
    { slug: 'unknown', label: 'UNKNOWN' },
    { slug: 'valid', label: 'VALID' },
    { slug: 'invalid', label: 'INVALID' },
    { slug: 'catch_all', label: 'CATCH_ALL', aliases: ['catch-all', 'catchall'] },
  ],
};

/** Data-derived lists: any value stored in the current release is valid; values come from the data. */
export const SKILLS: ClosedList = { name: 'skills', description: 'Skills (lowercase).', values: [], fromData: true };
export const LANGUAGES: ClosedList = {
  name: 'languages',
  description: 'Spoken languages.',
  values: [],
  fromData: true,
};
export const TECHNOLOGIES: ClosedList = {
  name: 'technologies',
  description: 'Technologies used by the company.',
  values: [],
  fromData: true,
};
export const PERSONAS: ClosedList = { name: 'personas', description: 'Buyer personas.', values: [], fromData: true };
