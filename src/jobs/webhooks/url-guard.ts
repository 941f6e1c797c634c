import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { AppError } from '../../domain/errors/index.js';
import { isPublicAddress } from '../../operations/enrichment-upload/address-guard.js';

/**
 * Where a webhook may be delivered: an `https:` URL whose host resolves only to public addresses — the upload page's
 * guard for sheet links (operations/enrichment-upload/address-guard.ts: no loopback, private, link-local, metadata,
 * reserved address, nor their IPv6 spellings) — checked when the endpoint is saved and again in the connection's own
 * DNS lookup on every attempt, so the address connected to is the address checked. Hosts on the operator's
 * allow-list (CDS_WEBHOOK_ALLOW_HOSTS) may be private or loopback and may use plain `http:`.
 */
export const WEBHOOK_URL_MAX = 2000;

const refused = (message: string) =>
  new AppError('webhook.url_refused', message, {
    field: 'url',
    hint:
      'Use a public https:// address. A self-hosted deployment can allow hosts on its own network with ' +
      'CDS_WEBHOOK_ALLOW_HOSTS.',
  });

export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

/** The URL parsed and checked without a DNS lookup (scheme, credentials, literal addresses). */
export function parseWebhookUrl(raw: string, allow: readonly string[]): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw refused('The webhook URL is not a valid absolute URL.');
  }
  const allowed = allow.includes(hostOf(url));
  if (url.protocol !== 'https:' && !(allowed && url.protocol === 'http:'))
    throw refused(`A webhook URL must use https:, not ${url.protocol.replace(/:$/, '')}.`);
  if (url.username || url.password) throw refused('A webhook URL may not carry a user name or password.');
  if (url.hash) throw refused('A webhook URL may not carry a #fragment.');
  const host = hostOf(url);
  if (!allowed && isIP(host) && !isPublicAddress(host))
    throw refused('The webhook URL points to a private, loopback, link-local or metadata address.');
  return url;
}

/** parseWebhookUrl, then the host's current addresses (a name that does not resolve now is checked at each attempt). */
export async function checkWebhookUrl(raw: string, allow: readonly string[]): Promise<URL> {
  const url = parseWebhookUrl(raw, allow);
  const host = hostOf(url);
  if (allow.includes(host) || isIP(host)) return url;
  const addresses = await new Promise<LookupAddress[]>((resolve) =>
    dnsLookup(host, { all: true }, (err, a) => resolve(err ? [] : a)),
  );
  if (addresses.some((a) => !isPublicAddress(a.address)))
    throw refused('The webhook URL resolves to a private, loopback, link-local or metadata address.');
  return url;
}

/** The connection's DNS lookup for a webhook host: every address must be public unless the host is allowed. */
export function webhookLookup(allowed: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 4);
      const bad = allowed ? undefined : addresses.find((a) => !isPublicAddress(a.address));
      if (bad || addresses.length === 0) {
        const e = Object.assign(new Error(`address refused: ${bad?.address ?? 'none'}`), {
          code: 'CDS_ADDRESS_REFUSED',
        });
        return callback(e, '', 4);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}
