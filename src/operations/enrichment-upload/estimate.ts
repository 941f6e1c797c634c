import type { Account } from '../../domain/account.js';
import type { CheckedMapping } from '../../domain/uploads/mapping.js';
import type { Sheet } from '../../domain/uploads/parse-csv.js';
import { canMatch, rowInput } from '../../domain/uploads/row-input.js';
import { contactAvailable } from '../dry-run.js';
import type { Services } from '../types.js';

/** The cost estimate shown before a run starts: nothing is held or charged by it. */
export interface RunEstimate {
  rows: number;
  /** Rows with an identifier that reads as an email, phone or profile URL (and a usable domain): each may match. */
  rows_that_can_match: number;
  /** Rows whose identifier cells are all empty (free). */
  rows_missing_identifier: number;
  /** Rows whose identifier is none of the three, or whose domain cell is not a domain (free). */
  rows_invalid: number;
  /** At most one contact credit per row that can match. */
  max_credits: number;
  credits_left: number;
  /** False when the credits left cover fewer rows than can match: the run stops charging when they run out. */
  enough_credits: boolean;
}

export function countRows(sheet: Sheet, m: CheckedMapping, host: string) {
  let can = 0;
  let missing = 0;
  for (let row = 0; row < sheet.rowCount; row++) {
    const r = rowInput(sheet.cells(row), m.indexes, host);
    if (r.kind === 'missing') missing++;
    else if (canMatch(r)) can++;
  }
  return { rows: sheet.rowCount, can, missing, invalid: sheet.rowCount - can - missing };
}

export async function estimateRun(
  services: Services,
  account: Account,
  sheet: Sheet,
  m: CheckedMapping,
): Promise<RunEstimate> {
  return estimateOfCounts(services, account, countRows(sheet, m, services.config.networkHost));
}

/** The estimate of rows already counted (an upload's stored summary): only the credits left are read again. */
export async function estimateOfCounts(
  services: Services,
  account: Account,
  c: ReturnType<typeof countRows>,
): Promise<RunEstimate> {
  const credits = await contactAvailable({ services, account }, 'enrich');
  return {
    rows: c.rows,
    rows_that_can_match: c.can,
    rows_missing_identifier: c.missing,
    rows_invalid: c.invalid,
    max_credits: c.can,
    credits_left: credits.available,
    enough_credits: credits.available >= c.can,
  };
}
