import type { Middleware } from 'koa';
import { AppError } from '../../domain/errors/index.js';

/** The contract date of v1 and the newest contract date this build implements (spec "Versioning"). */
export const FIRST_CONTRACT_DATE = '2026-09-19';
export const LATEST_CONTRACT_DATE = '2026-10-11';

/**
 * `Service-Version: YYYY-MM-DD`. Missing → the latest contract. A malformed date, or one before v1 was
 * published, answers 400 request.invalid. Any later date gets the latest contract this build serves,
 * which is echoed in the response header.
 */
export function serviceVersion(): Middleware {
  return async (ctx, next) => {
    const raw = ctx.get('Service-Version');
    if (raw !== '') {
      if (
        !/^\d{4}-\d{2}-\d{2}$/.test(raw) ||
        Number.isNaN(Date.parse(`${raw}T00:00:00Z`)) ||
        new Date(`${raw}T00:00:00Z`).toISOString().slice(0, 10) !== raw
      ) {
        throw new AppError('request.invalid', 'Service-Version must be a date of the form YYYY-MM-DD.', {
          field: 'header.Service-Version',
          hint: `Send Service-Version: ${LATEST_CONTRACT_DATE}, or omit the header for the latest contract.`,
        });
      }
      if (raw < FIRST_CONTRACT_DATE) {
        throw new AppError('request.invalid', `No contract exists before ${FIRST_CONTRACT_DATE}.`, {
          field: 'header.Service-Version',
          hint: `Send a date on or after ${FIRST_CONTRACT_DATE}.`,
        });
      }
    }
    ctx.set('Service-Version', LATEST_CONTRACT_DATE);
    await next();
  };
}
