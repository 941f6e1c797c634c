export { parseFamilyBFilters, type FamilyBFilterOptions, type ParsedFamilyBFilters } from './filters.js';
export { overlappingBands } from './bands.js';
export { parseWhereSql, WHERE_SQL_MAX_CHARS, type RunSql } from './where-sql/parse-where-sql.js';
