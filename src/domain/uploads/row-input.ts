import { classifyEnrichInput, type EnrichInput, normalizeDomain } from '../normalize/index.js';
import { IDENTIFIER_FIELDS, type UploadField } from './mapping.js';

/**
 * What one sheet row asks the enrichment for: the identifier it is matched on, the first mapped identifier cell
 * (email, then profile URL, then phone) that reads as one, sent as `inputs: [input]`, and the row's domain cell as
 * `company_domain`. A row whose identifier cells are all empty is `missing` (no input, free); one whose non-empty
 * identifier cells are none of the three is `invalid` (free, as POST /v1/enrichments answers it); a domain cell
 * that is not a bare domain with a dot makes the row `bad_domain` (the route refuses such a company_domain; free).
 */
export type RowInput =
  | { kind: 'missing' }
  | { kind: 'bad_domain'; input: string; domainCell: string }
  | { kind: 'input'; input: string; classified: EnrichInput; domain: string | null };

export function rowInput(
  row: readonly string[] | ((column: number) => string),
  indexes: Partial<Record<UploadField, number>>,
  host: string,
): RowInput {
  // A row is its cells, or a reader of them (Sheet.cells: no array is made for a row of a kept sheet).
  const cellAt = typeof row === 'function' ? row : (i: number) => row[i] ?? '';
  let first: string | null = null;
  let picked: { input: string; classified: EnrichInput } | null = null;
  for (const field of IDENTIFIER_FIELDS) {
    const i = indexes[field];
    if (i === undefined) continue;
    const cell = cellAt(i).trim();
    if (cell === '') continue;
    first ??= cell;
    const classified = classifyEnrichInput(cell, host);
    if (classified.kind !== 'invalid') {
      picked = { input: cell, classified };
      break;
    }
  }
  if (first === null) return { kind: 'missing' };
  const input = picked ?? { input: first, classified: { kind: 'invalid' } as EnrichInput };
  const di = indexes.domain;
  const domainCell = di === undefined ? '' : cellAt(di).trim();
  if (domainCell === '') return { kind: 'input', ...input, domain: null };
  const domain = domainCell.includes('.') ? (normalizeDomain(domainCell) ?? null) : null;
  if (!domain) return { kind: 'bad_domain', input: input.input, domainCell };
  return { kind: 'input', ...input, domain };
}

/** Whether a row can cost a credit: an identifier that reads as one and a usable domain (or none). */
export function canMatch(r: RowInput): boolean {
  return r.kind === 'input' && r.classified.kind !== 'invalid';
}
