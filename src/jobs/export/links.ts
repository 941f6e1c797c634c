import { createHmac, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';

/**
 * Export files and their signed links. A file lives at `<filesDir>/exports/<export_id>.csv`; its link
 * is `<public_url>/files/exports/<export_id>.csv?expires=<epoch seconds>&sig=<signature>`, where the
 * signature is base64url HMAC-SHA256, keyed with the service secret, over the file path and the expiry.
 * Anyone holding the link can download until it expires (the link is the credential, as with S3 presigned
 * URLs); changing the id or the expiry breaks the signature. A link handed out to an API key carries that key's id
 * (`&key=key_…`, signed with the path): it answers 410 once the key is revoked (http/files.ts).
 */

/** Export ids as newId('export') mints them; nothing else is ever served (no path traversal). */
export const EXPORT_FILE_NAME = /^exp_[0-9A-Za-z]{1,64}\.csv$/;

/** `filesDir` is CDS_FILES_DIR (default DATA/files), shared by every process that serves or writes exports. */
export function exportsDir(filesDir: string): string {
  return join(filesDir, 'exports');
}

export function exportFile(filesDir: string, exportId: string): string {
  return join(exportsDir(filesDir), `${exportId}.csv`);
}

/** The link expiry: completion plus the family's lifetime, to whole seconds. */
export function linkExpiry(completedAt: string, ttlMs: number): Date {
  return new Date(Math.floor((Date.parse(completedAt) + ttlMs) / 1000) * 1000);
}

function signature(secret: string, path: string, expires: number): Buffer {
  return createHmac('sha256', secret).update(`cds-file-link\n${path}\n${expires}`).digest();
}

/** The signed download link of an export file, bound to the API key it is handed out to (if any). */
export function exportLink(
  publicUrl: string,
  secret: string,
  exportId: string,
  expiresAt: Date,
  keyId?: string | undefined,
): string {
  return `${publicUrl}/files/${signedPath(secret, `exports/${exportId}.csv`, expiresAt, keyId)}`;
}

/** API key ids as newId('key') mints them. */
const KEY_ID = /^key_[0-9A-Za-z]{1,64}$/;

/** What a link signs: its path, and the id of the key it was handed out to (so that id cannot be swapped). */
function keyedPath(path: string, keyId: string | undefined): string {
  return keyId === undefined ? path : `${path}?key=${keyId}`;
}

/**
 * `<path>?expires=…[&key=…]&sig=…` for any signed path: the path names what the link opens (`exports/…`,
 * `enrichments/…`, `upload/…`), so a signature made for one purpose never opens another. With `keyId`, the link is
 * bound to that API key: its id is signed too, and the link closes when the key is revoked.
 */
export function signedPath(secret: string, path: string, expiresAt: Date, keyId?: string | undefined): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  const key = keyId === undefined ? '' : `&key=${keyId}`;
  return `${path}?expires=${expires}${key}&sig=${signature(secret, keyedPath(path, keyId), expires).toString('base64url')}`;
}

/**
 * The subject to check a link's signature against (`checkLink`'s path) and the key it names: the plain path for a
 * link without `key` (made before links named their key, or handed out without one), else the path with the key id.
 * Null for a malformed `key` (an invalid link).
 */
export function linkSubject(path: string, keyParam: unknown): { path: string; keyId: string | undefined } | null {
  if (keyParam === undefined) return { path, keyId: undefined };
  if (typeof keyParam !== 'string' || !KEY_ID.test(keyParam)) return null;
  return { path: keyedPath(path, keyParam), keyId: keyParam };
}

export type LinkCheck = { ok: true; expiresAt: Date } | { ok: false; reason: 'invalid' | 'expired' };

/** Checks a link's signature (constant time) and then its expiry against `now`. */
export function checkLink(
  secret: string,
  path: string,
  expiresParam: unknown,
  sigParam: unknown,
  now: Date,
): LinkCheck {
  if (typeof expiresParam !== 'string' || !/^\d{1,12}$/.test(expiresParam) || typeof sigParam !== 'string')
    return { ok: false, reason: 'invalid' };
  const expires = Number(expiresParam);
  // Compared as text: two base64url spellings of the same bytes (the last character's spare bits) are not both valid.
  const given = Buffer.from(sigParam, 'utf8');
  const wanted = Buffer.from(signature(secret, path, expires).toString('base64url'), 'utf8');
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return { ok: false, reason: 'invalid' };
  const expiresAt = new Date(expires * 1000);
  return now.getTime() >= expiresAt.getTime() ? { ok: false, reason: 'expired' } : { ok: true, expiresAt };
}
