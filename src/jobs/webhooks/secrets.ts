import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Webhook signing secrets and signatures, to the Standard Webhooks convention: a secret is `whsec_<base64 of 24
 * random bytes>`; a message is signed `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` keyed
 * with the secret's decoded bytes; several signatures (a rotation's overlap) are separated by spaces.
 *
 * The secret must be read back to sign, so it cannot be stored as a hash as API keys are: the store holds it sealed
 * (AES-256-GCM under a key derived from the service secret, which lives outside the state store), so a copy of the
 * state alone does not let anyone sign.
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

function sealKey(serviceSecret: string): Buffer {
  return createHash('sha256').update(`cds-webhook-secret\n${serviceSecret}`).digest();
}

export function sealSecret(serviceSecret: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(serviceSecret), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

export function openSecret(serviceSecret: string, sealed: string): string {
  const raw = Buffer.from(sealed.replace(/^v1\./, ''), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', sealKey(serviceSecret), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** One `v1,<base64>` signature of a message under a `whsec_` secret. */
export function signMessage(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}
