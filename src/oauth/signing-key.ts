import { createHmac, createPrivateKey } from 'node:crypto';

/** PKCS#8 DER header of an Ed25519 private key; the 32-byte seed follows. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * The authorization server's signing key (JWKS), derived from the service secret: every process of a deployment
 * that shares the secret signs and verifies with the same key, and nothing more is stored. Access tokens are opaque
 * (looked up in the state store); the key signs only what the provider itself signs (ID tokens, none by default).
 */
export function signingJwks(secret: string): { keys: Record<string, unknown>[] } {
  const seed = createHmac('sha256', secret).update('cds-oauth-signing-key-v1').digest();
  const key = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const jwk = key.export({ format: 'jwk' }) as Record<string, unknown>;
  return { keys: [{ ...jwk, alg: 'EdDSA', use: 'sig' }] };
}

/** Keys of the provider's own signed cookies (interaction and login session), from the service secret. */
export const cookieKeys = (secret: string): string[] => [
  createHmac('sha256', secret).update('cds-oauth-cookies-v1').digest('base64url'),
];
