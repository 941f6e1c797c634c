export { AppError, type AppErrorOptions, isAppError } from './app-error.js';
export {
  ADDED_ERROR_CODES,
  ADDED_WARNING_CODES,
  ERROR_CATALOG,
  type ErrorCode,
  SPEC_ERROR_CODES,
  SPEC_WARNING_CODES,
  statusOf,
  WARNING_CODES,
  type WarningCode,
} from './catalog.js';
