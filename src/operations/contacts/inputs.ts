import * as v from 'valibot';
import { intParam } from '../schemas.js';

/** Body members shared by count, search and export (family A). The filter parser checks `filter` deeply. */
export const filterMember = v.pipe(
  v.record(v.string(), v.unknown(), 'must be an object'),
  v.description(
    'Filter object: flat keys (countries, seniority, functions, domains, title_query, ...) AND-combined, plus an ' +
      'optional where tree. {} matches every row. See GET /v1/contacts/schema.',
  ),
);

export const excludeIdsMember = v.pipe(
  v.array(v.string(), 'must be an array of person ids'),
  v.description('Person ids (per_…) to leave out; up to 1,000; unknown ids have no effect.'),
);

export const columnsMember = v.pipe(
  v.array(v.string(), 'must be an array of column names'),
  v.description('Output columns; default the enrichment default set; ["*"] for every column.'),
);

export const SEARCH_LIMIT_DEFAULT = 100;
export const SEARCH_LIMIT_MAX = 1000;

export const limitMember = intParam(
  1,
  SEARCH_LIMIT_MAX,
  `Rows per page (default ${SEARCH_LIMIT_DEFAULT}, at most ${SEARCH_LIMIT_MAX}).`,
);
export const cursorMember = v.pipe(
  v.nullable(v.string()),
  v.description('page.next_cursor of the previous page, unchanged; null or absent for the first page.'),
);
export const maxPerCompanyMember = intParam(1, 1000, 'At most this many rows per company_domain in each page.');

export const audienceIdMember = v.pipe(
  v.string('must be a string'),
  v.maxLength(100, 'must be at most 100 characters'),
  v.description(
    'A saved audience (aud_…, POST /v1/audiences) whose filter to use instead of filter: send one of the two.',
  ),
);
