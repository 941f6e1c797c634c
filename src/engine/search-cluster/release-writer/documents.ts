import { sha256Of } from '../../../domain/optouts.js';
import { SUPPRESSION_COLUMNS } from '../../../domain/suppression.js';
import { SHA256_FIELD } from '../schema.js';

/**
 * A release row (catalog columns, as the built release holds them) as the document indexed: null fields left out
 * (a missing field is a null to every query), and on contacts the SHA-256 of each email and phone value, which
 * suppression lists' sha256 entries match (suppression.ts).
 */
export function documentOf(entity: 'contact' | 'company', row: Record<string, unknown>): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) if (v !== null && v !== undefined) doc[k] = v;
  if (entity === 'contact') {
    const hashes = SUPPRESSION_COLUMNS.sha256.flatMap((c) => {
      const v = row[c];
      return typeof v === 'string' && v !== '' ? [sha256Of(v)] : [];
    });
    if (hashes.length) doc[SHA256_FIELD] = [...new Set(hashes)];
  }
  return doc;
}
