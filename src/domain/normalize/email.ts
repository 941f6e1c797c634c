import { isHostname } from './hostname.js';

const LOCAL = /^[a-z0-9!#$%&'*+=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+=?^_`{|}~-]+)*$/;

/** The bare address inside `mailto:...` or `Name <address>`; the input itself otherwise. */
function unwrap(input: string): string {
  const s = input.trim();
  const angled = /<([^<>]*)>\s*$/.exec(s);
  if (angled) return angled[1]!.trim();
  const mailto = /^mailto:([^?]*)/i.exec(s);
  return mailto ? mailto[1]! : s;
}

/**
 * Lowercased bare work email from an address, `mailto:` link or `Name <address>`; undefined unless it
 * is plausible: one @, a dotted domain, no spaces, an unquoted ASCII local part.
 */
export function parseEmail(input: string): string | undefined {
  if (input.length > 512) return undefined;
  const email = unwrap(input)
    .replace(/^mailto:/i, '')
    .toLowerCase();
  if (email.length > 254) return undefined;
  const parts = email.split('@');
  if (parts.length !== 2) return undefined;
  const [local, domain] = parts as [string, string];
  return local.length <= 64 && LOCAL.test(local) && isHostname(domain) ? email : undefined;
}

/** The domain of an address (after the last @); '' when there is no @. */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : email.slice(at + 1);
}
