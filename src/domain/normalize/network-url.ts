export type NetworkUrlKind = 'person' | 'company' | 'post' | 'activity';
export interface NetworkUrl {
  kind: NetworkUrlKind;
  slug: string;
}

/** The configured network host without a leading `www.`, lowercase. */
function baseHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^www\./, '');
}

/** Decoded, lowercased path segment; undefined when it is malformed or holds separators or spaces. */
function segmentSlug(raw: string): string | undefined {
  let slug: string;
  try {
    slug = decodeURIComponent(raw).toLowerCase();
  } catch {
    return undefined;
  }
  return slug !== '' && !/[\s/?#\\<>"]|\p{C}/u.test(slug) ? slug : undefined;
}

function parseUrl(input: string): URL | undefined {
  const s = input.trim();
  if (s === '' || s.length > 2048 || /\s/.test(s)) return undefined;
  // A profile link pasted without its scheme is still unambiguous.
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(s) ? s : `https://${s}`;
  try {
    return new URL(withScheme);
  } catch {
    return undefined;
  }
}

/**
 * Person, company, post or activity reference in a profile URL of the network on `host` (http or https,
 * optional `www.` or two-letter country subdomain, trailing slash and query ignored); undefined otherwise.
 */
export function parseNetworkUrl(input: string, host: string): NetworkUrl | undefined {
  const url = parseUrl(input);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.port) return undefined;
  const base = baseHost(host);
  const sub = url.hostname.endsWith(`.${base}`) ? url.hostname.slice(0, -base.length - 1) : undefined;
  if (url.hostname !== base && sub !== 'www' && !(sub !== undefined && /^[a-z]{2}$/.test(sub))) return undefined;

  const parts = url.pathname.split('/').filter((p) => p !== '');
  if (parts.length === 2) {
    const kind = ({ in: 'person', company: 'company', posts: 'post' } as const)[parts[0]!.toLowerCase() as 'in'];
    const slug = segmentSlug(parts[1]!);
    return kind && slug ? { kind, slug } : undefined;
  }
  if (parts.length === 3 && parts[0]!.toLowerCase() === 'feed' && parts[1]!.toLowerCase() === 'update') {
    const urn = segmentSlug(parts[2]!);
    const id = urn && /^urn:li:activity:(\d{1,30})$/.exec(urn)?.[1];
    return id ? { kind: 'activity', slug: id } : undefined;
  }
  return undefined;
}

/** Canonical profile URL of a person or company slug on the network `host`. */
export function networkProfileUrl(kind: 'person' | 'company', slug: string, host: string): string {
  return `https://www.${baseHost(host)}/${kind === 'person' ? 'in' : 'company'}/${encodeURIComponent(slug)}`;
}
