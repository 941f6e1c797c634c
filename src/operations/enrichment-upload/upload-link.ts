import { UPLOAD_LINK_TTL_MS } from '../../jobs/enrichment/payload.js';
import { signedPath } from '../../jobs/export/links.js';

/**
 * The upload page link: `<public_url>/upload/<upl_id>?expires=…&sig=…`, signed like file links (HMAC-SHA256 with
 * the service secret over the path `upload/<upl_id>` and the expiry, checked in constant time). The path names
 * the purpose, so the signature opens this upload's page and its form endpoints and nothing else; the upload
 * record binds it to the account that asked for it. It carries no API key.
 */
export const uploadPath = (uploadId: string) => `upload/${uploadId}`;

export function uploadPageLink(publicUrl: string, secret: string, uploadId: string, expiresAt: Date): string {
  return `${publicUrl}/${signedPath(secret, uploadPath(uploadId), expiresAt)}`;
}

/** The link's expiry: creation plus 24 hours, to whole seconds. */
export function uploadLinkExpiry(now: Date): Date {
  return new Date(Math.floor((now.getTime() + UPLOAD_LINK_TTL_MS) / 1000) * 1000);
}
