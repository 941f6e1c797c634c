import type { ClosedList } from '../types.js';

/** CompanySize (frozen). Labels are the family B size-band labels. */
export const COMPANY_SIZES: ClosedList = {
  name: 'company_size',
  description: 'Employee band of the company.',
  values: [
    { slug: '1-10', label: '1-10 employees' },
    { slug: '11-50', label: '11-50 employees' },
    { slug: '51-200', label: '51-200 employees' },
    { slug: '201-500', label: '201-500 employees' },
    { slug: '501-1K', label: '501-1,000 employees', aliases: ['501-1000'] },
    { slug: '1K-5K', label: '1,001-5,000 employees', aliases: ['1001-5000'] },
    { slug: '5K-10K', label: '5,001-10,000 employees', aliases: ['5001-10000'] },
    { slug: '10K+', label: '10,001+ employees', aliases: ['10001+'] },
  ],
};

/** Employee-count bounds of each size band, inclusive; used by the loader and band-overlap filters. */
export const SIZE_BANDS: ReadonlyArray<{ slug: string; min: number; max: number | null }> = [
  { slug: '1-10', min: 1, max: 10 },
  { slug: '11-50', min: 11, max: 50 },
  { slug: '51-200', min: 51, max: 200 },
  { slug: '201-500', min: 201, max: 500 },
  { slug: '501-1K', min: 501, max: 1000 },
  { slug: '1K-5K', min: 1001, max: 5000 },
  { slug: '5K-10K', min: 5001, max: 10000 },
  { slug: '10K+', min: 10001, max: null },
];

/** CompanyRevenue. Labels are the family B revenue labels. */
export const COMPANY_REVENUE: ClosedList = {
  name: 'company_revenue',
  description: 'Annual revenue range of the company, USD.',
  values: [
    { slug: '0-1M', label: '<$1M' },
    { slug: '1M-10M', label: '$1M to <$10M' },
    { slug: '10M-50M', label: '$10M to <$50M' },
    { slug: '50M-100M', label: '$50M to <$100M' },
    { slug: '100M-1B', label: '$100M to <$1B' },
    { slug: '1B+', label: '$1B+' },
  ],
};

/** Revenue bounds of each range in USD: min inclusive, max exclusive. */
export const REVENUE_BANDS: ReadonlyArray<{ slug: string; min: number; max: number | null }> = [
  { slug: '0-1M', min: 0, max: 1_000_000 },
  { slug: '1M-10M', min: 1_000_000, max: 10_000_000 },
  { slug: '10M-50M', min: 10_000_000, max: 50_000_000 },
  { slug: '50M-100M', min: 50_000_000, max: 100_000_000 },
  { slug: '100M-1B', min: 100_000_000, max: 1_000_000_000 },
  { slug: '1B+', min: 1_000_000_000, max: null },
];

export const FUNDING_ROUND_TYPES: ClosedList = {
  name: 'funding_round_type',
  description: 'Type of the latest financing event (series C and later use series_c_plus).',
  values: [
    { slug: 'pre_seed', label: 'Pre-seed', aliases: ['pre-seed', 'preseed'] },
    { slug: 'seed', label: 'Seed' },
    { slug: 'series_a', label: 'Series A', aliases: ['series a'] },
    { slug: 'series_b', label: 'Series B', aliases: ['series b'] },
    {
      slug: 'series_c_plus',
      label: 'Series C+',
      aliases: ['series c', 'series d', 'series e', 'series f', 'series g', 'series_c', 'series_d', 'series_e'],
    },
    { slug: 'private_equity', label: 'Private equity', aliases: ['private equity', 'pe'] },
    { slug: 'debt', label: 'Debt financing', aliases: ['debt financing'] },
    { slug: 'other', label: 'Other' },
  ],
};

export const ENTITY_TYPES: ClosedList = {
  name: 'entity_type',
  description: 'Legal entity type of the company.',
  values: [
    { slug: 'public', label: 'Public Company', aliases: ['public company', 'publicly held'] },
    { slug: 'private', label: 'Privately Held', aliases: ['privately held', 'private company'] },
    { slug: 'non_profit', label: 'Non Profit', aliases: ['non profit', 'nonprofit', 'non-profit'] },
    { slug: 'government', label: 'Government Agency', aliases: ['government agency'] },
    { slug: 'educational', label: 'Educational', aliases: ['educational institution'] },
    { slug: 'partnership', label: 'Partnership' },
    { slug: 'self_employed', label: 'Self-Employed', aliases: ['self employed', 'sole proprietorship'] },
  ],
};
