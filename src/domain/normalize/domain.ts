import { asciiHost, isHostname } from './hostname.js';

/**
 * Bare employer domain from a domain or a URL: no scheme, credentials, port, path, query, fragment,
 * trailing dot or leading `www.`; lowercase, internationalized names in punycode. undefined when not a domain.
 */
export function normalizeDomain(input: string): string | undefined {
  // Already bare (lowercase, no scheme, path, port or `www.`): every step below would leave it as it is. Most lists of
  // domains in a filter are written so, and are normalized again on every request.
  if (!input.startsWith('www.') && isHostname(input)) return input;
  let s = input.trim();
  if (s === '' || /\s/.test(s)) return undefined;
  s = s.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/^\/\//, '');
  s = s.split(/[/?#\\]/, 1)[0]!;
  s = s.slice(s.lastIndexOf('@') + 1);
  s = s.replace(/:\d*$/, '').replace(/\.$/, '');
  s = asciiHost(s);
  // `www.` is a host, not the company's domain; keep it only when nothing else would remain (www.com).
  if (s.startsWith('www.') && s.indexOf('.', 4) > 0) s = s.slice(4);
  return isHostname(s) ? s : undefined;
}
