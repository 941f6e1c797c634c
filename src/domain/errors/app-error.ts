import { ERROR_CATALOG, type ErrorCode } from './catalog.js';

export interface AppErrorOptions {
  hint?: string;
  field?: string;
  details?: Record<string, unknown>;
}

/** The one error type: every failure the client sees is an AppError with a catalog code. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly hint?: string;
  readonly field?: string;
  readonly details?: Record<string, unknown>;

  constructor(code: ErrorCode, message?: string, opts: AppErrorOptions = {}) {
    super(message ?? ERROR_CATALOG[code].message);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CATALOG[code].status;
    if (opts.hint !== undefined) this.hint = opts.hint;
    if (opts.field !== undefined) this.field = opts.field;
    if (opts.details !== undefined) this.details = opts.details;
  }

  toBody(): { code: ErrorCode; message: string; hint?: string; field?: string; details?: Record<string, unknown> } {
    return {
      code: this.code,
      message: this.message,
      ...(this.hint !== undefined ? { hint: this.hint } : {}),
      ...(this.field !== undefined ? { field: this.field } : {}),
      ...(this.details !== undefined ? { details: this.details } : {}),
    };
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}
