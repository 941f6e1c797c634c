import type { ClosedList } from '../types.js';

/** Industry taxonomy: slug + English label. */
export const INDUSTRIES: ClosedList = {
  name: 'industry',
  description: 'Industry slugs such as software_development; a label is folded to its slug.',
  routeName: 'industries',
  values: [
    { slug: 'software_development', label: 'Software Development' },
    { slug: 'financial_services', label: 'Financial Services' },
  ],
};
