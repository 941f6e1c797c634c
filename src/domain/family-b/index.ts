export { parseFamilyBFilters, type FamilyBFilterOptions, type ParsedFamilyBFilters } from './filters.js';
export { overlappingBands } from './bands.js';
export { WHERE_SQL_MAX_CHARS, type WhereSqlParser } from './where-sql.js';
