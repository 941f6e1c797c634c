export { AppError, type AppErrorOptions, isAppError } from './app-error.js';
export {
  ADDED_ERROR_CODES,
  ERROR_CATALOG,
  type ErrorCode,
  SPEC_ERROR_CODES,
  statusOf,
  WARNING_CODES,
  type WarningCode,
} from './catalog.js';
