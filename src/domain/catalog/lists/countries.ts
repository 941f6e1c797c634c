import type { ClosedList } from '../types.js';

/** ISO-3166-1 countries: slug = lowercase alpha-2, label = English short name, aliases = alpha-3 and common names. */
export const COUNTRIES: ClosedList = {
  name: 'country',
  description: 'Countries as lowercase ISO-2 slugs; ISO codes, English names and common aliases are accepted.',
  values: [
    { slug: 'us', label: 'United States', aliases: ['usa', 'united states of america', 'u.s.', 'u.s.a.', 'america'] },
    { slug: 'gb', label: 'United Kingdom', aliases: ['gbr', 'uk', 'great britain', 'england'] },
    { slug: 'de', label: 'Germany', aliases: ['deu'] },
  ],
};
