import { createHash } from 'node:crypto';
import { AppError } from './errors/index.js';
import { parseEmail } from './normalize/email.js';
import { parseNetworkUrl } from './normalize/network-url.js';
import { normalizePhone } from './normalize/phone.js';

/**
 * Opt-outs (suppression list): identifiers of people who asked not to be served. An entry is keyed by one of
 * - `id`: a contact id as the release has it (`per_…`, case kept);
 * - `email`: a work or personal email address, lowercased (the loader's `parseEmail`, the same form the release's
 *   `work_email` holds);
 * - `phone`: E.164 (the loader's `normalizePhone`, the form of `mobile_phone` and `direct_phone`);
 * - `url`: the slug of a person profile on the network, lowercased and percent-decoded (what `parseNetworkUrl`
 *   gives and the release's `network_slug` holds); a profile URL or a bare slug is accepted;
 * - `sha256`: the SHA-256 of a normalized email or phone (see `sha256Of`), 64 lowercase hex digits, kept as given
 *   (upper-case hex is lowercased); lists are often delivered hashed.
 * Stored values are always the normalized form, so matching is exact string equality.
 */
export type OptOutType = 'id' | 'email' | 'phone' | 'url' | 'sha256';

export const OPT_OUT_TYPES: readonly OptOutType[] = ['id', 'email', 'phone', 'url', 'sha256'];

export interface OptOutEntry {
  type: OptOutType;
  /** The normalized identifier (see OptOutType). */
  value: string;
}

export type OptOutParse = { ok: true; entry: OptOutEntry } | { ok: false; reason: string };

export function isOptOutType(s: unknown): s is OptOutType {
  return typeof s === 'string' && (OPT_OUT_TYPES as readonly string[]).includes(s);
}

/** The longest contact id accepted (ids of the release are far shorter). */
const MAX_ID_LENGTH = 128;
const CONTACT_ID = /^per_[^\s\p{C}]+$/u;
const SHA256_HEX = /^[0-9a-f]{64}$/i;
/** A bare slug: one path segment, nothing that would make it a URL or another segment. */
const BARE_SLUG = /^[^\s/?#\\:<>"]+$/;

/**
 * The normalized entry for a raw identifier of `type`, or why it is refused. `networkHost` is the configured network
 * host (CDS_NETWORK_HOST): a profile URL must be on it, as for enrichment and the loader.
 */
export function normalizeOptOut(type: OptOutType, raw: string, networkHost: string): OptOutParse {
  const ok = (value: string): OptOutParse => ({ ok: true, entry: { type, value } });
  const s = raw.trim();
  if (s === '') return { ok: false, reason: 'empty' };
  switch (type) {
    case 'id':
      if (s.length > MAX_ID_LENGTH)
        return { ok: false, reason: `a contact id has at most ${MAX_ID_LENGTH} characters` };
      return CONTACT_ID.test(s) ? ok(s) : { ok: false, reason: 'not a contact id (per_…)' };
    case 'email': {
      const email = parseEmail(s);
      return email ? ok(email) : { ok: false, reason: 'not an email address' };
    }
    case 'phone': {
      const phone = normalizePhone(s);
      return phone
        ? ok(phone)
        : { ok: false, reason: 'not a phone number (E.164 with +, or a 10-digit North American number)' };
    }
    case 'url': {
      const slug = profileSlug(s, networkHost);
      return slug.ok ? ok(slug.slug) : { ok: false, reason: slug.reason };
    }
    case 'sha256':
      return SHA256_HEX.test(s) ? ok(s.toLowerCase()) : { ok: false, reason: 'not a SHA-256 (64 hex digits)' };
  }
}

function profileSlug(s: string, host: string): { ok: true; slug: string } | { ok: false; reason: string } {
  const url = parseNetworkUrl(s, host);
  if (url) {
    return url.kind === 'person'
      ? { ok: true, slug: url.slug }
      : { ok: false, reason: `a ${url.kind} URL, not a person profile` };
  }
  if (BARE_SLUG.test(s) && s.length <= 512) {
    // A bare slug goes through the same segment rules (decoding, lowercase) as a slug inside a profile URL.
    const bare = parseNetworkUrl(`https://${host}/in/${s}`, host);
    if (bare?.kind === 'person') return { ok: true, slug: bare.slug };
  }
  return { ok: false, reason: `not a person profile URL on ${host} nor a profile slug` };
}

/**
 * SHA-256, as 64 lowercase hex digits, of the UTF-8 bytes of an already normalized email (lowercased bare address,
 * `parseEmail`) or phone (E.164 with its leading `+`, `normalizePhone`), with no salt, no trailing newline and no
 * other change. `sha256Of('jane@acme.com')`, `sha256Of('+14155550100')`. The engine hashes the release's values the
 * same way to match `sha256` entries; a supplier must hash the same normalized form.
 */
export function sha256Of(normalized: string): string {
  return createHash('sha256').update(normalized, 'utf8').digest('hex');
}

/**
 * The text key of an entry, `type:value`: the stable order of listings (byte order of the key, the same in both
 * state adapters) and the paging cursor (`after`: the key of the last entry of the previous page).
 */
export function optOutKey(e: OptOutEntry): string {
  return `${e.type}:${e.value}`;
}

/** The entry a key names, or undefined when it is not a key (an unknown type or no `:`). */
export function parseOptOutKey(key: string): OptOutEntry | undefined {
  const colon = key.indexOf(':');
  if (colon < 0) return undefined;
  const type = key.slice(0, colon);
  const value = key.slice(colon + 1);
  return isOptOutType(type) && value !== '' ? { type, value } : undefined;
}

/** The entry an `after` cursor names (listOptOuts); a malformed one answers 400 request.invalid on `cursor`. */
export function optOutAfter(after: string | null | undefined): string | null {
  if (after === null || after === undefined) return null;
  if (!parseOptOutKey(after)) {
    throw new AppError('request.invalid', 'The cursor is not valid.', {
      field: 'cursor',
      hint: 'Pass page.next_cursor back unchanged, or start again without a cursor.',
    });
  }
  return after;
}
