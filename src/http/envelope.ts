import type { AppError } from '../domain/errors/index.js';
import type { Quota } from '../domain/quota/index.js';
import type { Page, Warning } from '../operations/types.js';

/** Family A success envelope (spec "Success envelope"). */
export function successEnvelope(p: {
  requestId: string;
  buildLabel: string;
  data?: unknown;
  page?: Page;
  quota: Quota;
  warnings?: Warning[];
}): Record<string, unknown> {
  return {
    ok: true,
    request_id: p.requestId,
    release: p.buildLabel,
    ...(p.data !== undefined ? { data: p.data } : {}),
    ...(p.page !== undefined ? { page: p.page } : {}),
    quota: p.quota,
    warnings: p.warnings ?? [],
  };
}

/** Error envelope; `quota` only once the account is known. */
export function errorEnvelope(p: {
  requestId: string;
  buildLabel?: string;
  error: AppError;
  quota?: Quota;
}): Record<string, unknown> {
  return {
    ok: false,
    request_id: p.requestId,
    ...(p.buildLabel !== undefined ? { release: p.buildLabel } : {}),
    error: p.error.toBody(),
    ...(p.quota !== undefined ? { quota: p.quota } : {}),
  };
}
