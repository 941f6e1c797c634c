/** Family B regions and continents, derived from the person's country (ISO-2 slug). */
export const REGIONS = ['NORAM', 'EMEA', 'APAC', 'LATAM'] as const;
export const CONTINENTS = ['North America', 'Europe', 'Asia', 'South America', 'Africa', 'Oceania', 'Antarctica'] as const;
export type Region = (typeof REGIONS)[number];
export type Continent = (typeof CONTINENTS)[number];

/** country slug -> continent; filled for every ISO-2 country. */
export const COUNTRY_CONTINENT: Readonly<Record<string, Continent>> = { us: 'North America', gb: 'Europe', de: 'Europe' };
/** country slug -> region; every country with a continent has a region except Antarctica. */
export const COUNTRY_REGION: Readonly<Record<string, Region>> = { us: 'NORAM', gb: 'EMEA', de: 'EMEA' };
