import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** API key secrets: `cds_` + 40 base62 characters (about 238 bits), stored only as HMAC-SHA256(pepper, secret). */
export const SECRET_PREFIX = 'cds_';
const BODY_LENGTH = 40;
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** 4 * 62: bytes at or above it are dropped so that `byte % 62` is uniform (no modulo bias). */
const ACCEPT_BELOW = 248;
const SECRET_SHAPE = /^cds_[0-9A-Za-z]{40}$/;

export function generateSecret(): string {
  let body = '';
  while (body.length < BODY_LENGTH) {
    for (const byte of randomBytes(BODY_LENGTH)) {
      if (byte < ACCEPT_BELOW && body.length < BODY_LENGTH) body += ALPHABET[byte % 62];
    }
  }
  return SECRET_PREFIX + body;
}

export function isWellFormedSecret(secret: string): boolean {
  return SECRET_SHAPE.test(secret);
}

/** Hex HMAC-SHA256; the pepper lives outside the state file, so a stolen file alone can't test guesses. */
export function hashSecret(pepper: string, secret: string): string {
  return createHmac('sha256', pepper).update(secret).digest('hex');
}

/** The 8 characters after `cds_`, shown in key lists so a user can tell keys apart. */
export function displayPrefix(secret: string): string {
  return secret.slice(SECRET_PREFIX.length, SECRET_PREFIX.length + 8);
}

/** Constant-time equality of two hex digests. */
export function sameDigest(aHex: string, bHex: string): boolean {
  const a = Buffer.from(aHex, 'hex');
  const b = Buffer.from(bHex, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
