export { overlappingBands } from './bands.js';
export { type FamilyBFilterOptions, type ParsedFamilyBFilters, parseFamilyBFilters } from './filters.js';
export { WHERE_SQL_MAX_CHARS, type WhereSqlParser } from './where-sql.js';
