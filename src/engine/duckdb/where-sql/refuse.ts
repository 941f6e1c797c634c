import { AppError } from '../../../domain/errors/index.js';

export const FIELD = 'where_sql';

/** Every where_sql refusal is a 400 `request.invalid` on field `where_sql` (spec "Family B status codes"). */
export function refuse(message: string, hint: string): AppError {
  return new AppError('request.invalid', message, { field: FIELD, hint });
}

/** The bare word `system` as a whole word, any case (spec: the where_sql keyword guard). */
const GUARDED = /(?<![\p{L}\p{N}_])system(?![\p{L}\p{N}_])/iu;

/** Refuses a string literal holding the guarded word, whatever operator it appears under. */
export function guardLiteral(text: string): void {
  if (GUARDED.test(text)) {
    throw refuse(
      `A string literal in where_sql contains the bare word "system", which the keyword guard refuses.`,
      'Use a longer substring (for example a whole title phrase) or the job_titles filter.',
    );
  }
}
