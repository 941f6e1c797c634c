/** Seeded synthetic source dumps (people and companies) for `cds seed`, the loader benchmark and tests. */

export { COMPANY_FILL_COLUMNS, PERSON_FILL_COLUMNS } from './fill.js';
export type { GenerateOptions, GenerateResult } from './generate-dumps.js';
export { DEFAULT_AS_OF, DEFAULT_NETWORK_HOST, generateDumps } from './generate-dumps.js';
export type { Plant } from './plan.js';
export { PLANT_BLOCK, plantAt } from './plan.js';
export { COMPANY_FIELDS, PERSON_FIELDS } from './serialize.js';
export type { Level, TitleEntry } from './vocab/titles.js';
export { TITLE_ENTRIES } from './vocab/titles.js';
