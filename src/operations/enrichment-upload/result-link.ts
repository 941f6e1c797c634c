import { RESULT_LINK_TTL_MS } from '../../jobs/enrichment/payload.js';
import { signedPath } from '../../jobs/export/links.js';
import type { Services } from '../types.js';

/**
 * The signed download link of a completed CSV enrichment run's result (files.ts serves it): valid one hour from
 * `now`, bound to the key it is handed to (410 once that key is revoked), as get_enrichment_result, the REST route
 * GET /v1/enrichment-runs/{id} and the upload page's last step hand it out.
 */
export function resultLink(
  services: Pick<Services, 'config' | 'secret'>,
  runId: string,
  now: Date,
  keyId: string | undefined,
): { url: string; expiresAt: Date } {
  const expiresAt = new Date(Math.floor((now.getTime() + RESULT_LINK_TTL_MS) / 1000) * 1000);
  return {
    url: `${services.config.publicUrl}/files/${signedPath(services.secret, `enrichments/${runId}.csv`, expiresAt, keyId)}`,
    expiresAt,
  };
}
