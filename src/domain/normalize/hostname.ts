import { domainToASCII } from 'node:url';

const DOT = 0x2e;
const HYPHEN = 0x2d;
/** Longest label and longest name of DNS (RFC 1035). */
const MAX_LABEL = 63;
const MAX_NAME = 253;

/**
 * A dotted DNS name of ASCII labels whose last label is not all digits (so IP addresses are not domains): every label
 * 1 to 63 characters of `a-z`, `0-9` and `-`, not starting or ending with `-`. One pass over the characters: a list
 * of 1,000 domains in a filter checks every one of them on every request.
 */
export function isHostname(host: string): boolean {
  if (host.length > MAX_NAME) return false;
  let labelStart = 0;
  let dotted = false;
  let digitsOnly = true;
  for (let i = 0; i <= host.length; i++) {
    const c = i < host.length ? host.charCodeAt(i) : DOT;
    if (c === DOT) {
      const length = i - labelStart;
      if (length === 0 || length > MAX_LABEL) return false;
      if (host.charCodeAt(labelStart) === HYPHEN || host.charCodeAt(i - 1) === HYPHEN) return false;
      if (i === host.length) break;
      dotted = true;
      labelStart = i + 1;
      digitsOnly = true;
      continue;
    }
    const digit = c >= 0x30 && c <= 0x39;
    if (!digit && !(c >= 0x61 && c <= 0x7a) && c !== HYPHEN) return false;
    if (!digit) digitsOnly = false;
  }
  return dotted && !digitsOnly;
}

/** Lowercase ASCII (punycode) form of a host; '' when an internationalized name is not valid. */
export function asciiHost(host: string): string {
  const lower = host.toLowerCase();
  return /[^\x20-\x7e]/.test(lower) ? domainToASCII(lower) : lower;
}
