export { AppError, isAppError, type AppErrorOptions } from './app-error.js';
export { ADDED_ERROR_CODES, ERROR_CATALOG, SPEC_ERROR_CODES, WARNING_CODES, statusOf, type ErrorCode, type WarningCode } from './catalog.js';
