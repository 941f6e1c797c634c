import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { AppError } from '../../domain/errors/index.js';
import { isPublicAddress } from './address-guard.js';

export interface FetchSheetOptions {
  maxBytes: number;
  timeoutMs: number;
  /** Test-only addresses allowed although private or loopback (CDS_UPLOAD_FETCH_ALLOW_HOSTS). */
  allow: readonly string[];
  maxRedirects?: number;
}

const refused = (message: string) =>
  new AppError('upload.url_refused', message, {
    field: 'url',
    hint: 'Paste the public CSV export link of a published spreadsheet (http or https), or upload the file.',
  });
const failed = (message: string) =>
  new AppError('upload.url_failed', message, {
    field: 'url',
    hint: 'Check that the sheet is published to the web as CSV, or download it and upload the file.',
  });

const tooSlow = (timeoutMs: number) =>
  new AppError(
    'upload.url_failed',
    `Reading the link took too long (the limit is ${+(timeoutMs / 1000).toFixed(1)} s); nothing of it was kept.`,
    {
      field: 'url',
      hint: 'The sheet server answered too slowly: download the sheet as CSV and upload the file instead.',
    },
  );

/**
 * Reads a published spreadsheet by its link, guarded against server-side request forgery: http and https only, no
 * credentials in the URL; every address the host name resolves to must be public (isPublicAddress), checked in
 * the connection's own DNS lookup so the address connected to is the address checked; redirects are followed by
 * hand, at most 5, each hop checked again; the body stops at `maxBytes` and the whole fetch at `timeoutMs`.
 * Only a body read to its end is a sheet: a read past `timeoutMs`, a connection error (a reset) or a body shorter
 * than its framing is upload.url_failed, and nothing of it is returned. A body without length or chunking ends
 * when the connection closes, so Node reports a socket destroyed by the time limit or a reset as a complete
 * body; the signal and the request's own error are checked after the body for that reason.
 */
export async function fetchSheet(raw: string, o: FetchSheetOptions): Promise<{ bytes: Buffer; name: string }> {
  const signal = AbortSignal.timeout(o.timeoutMs);
  let url = parseUrl(raw);
  for (let hop = 0; ; hop++) {
    checkUrl(url, o.allow);
    const { res, broken } = await get(url, o.allow, signal, o.timeoutMs);
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume();
      if (hop >= (o.maxRedirects ?? 5)) throw failed('The link redirects too many times.');
      let next: string;
      try {
        next = new URL(res.headers.location, url).toString();
      } catch {
        throw failed('The link redirects to an address that is not a valid URL.');
      }
      url = parseUrl(next);
      continue;
    }
    if (status !== 200) {
      res.resume();
      throw failed(`The link answered HTTP ${status}; a published sheet answers 200 with CSV text.`);
    }
    const declared = Number(res.headers['content-length'] ?? '0');
    if (declared > o.maxBytes) {
      res.destroy();
      throw new AppError('upload.too_large', `The sheet is larger than ${o.maxBytes / 1024 / 1024} MB.`, {
        hint: 'Split the sheet into smaller files.',
      });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res) {
        size += (chunk as Buffer).length;
        if (size > o.maxBytes) {
          res.destroy();
          throw new AppError('upload.too_large', `The sheet is larger than ${o.maxBytes / 1024 / 1024} MB.`, {
            hint: 'Split the sheet into smaller files.',
          });
        }
        chunks.push(chunk as Buffer);
      }
    } catch (e) {
      if (e instanceof AppError) throw e;
      throw signal.aborted ? tooSlow(o.timeoutMs) : failed('The connection broke while reading the link.');
    }
    if (signal.aborted) throw tooSlow(o.timeoutMs);
    if (broken() || !res.complete) throw failed('The connection broke while reading the link.');
    const segment = url.pathname.split('/').pop() ?? '';
    let last = segment;
    try {
      last = decodeURIComponent(segment);
    } catch {
      // A malformed escape (`%E0`): the name is shown as sent.
    }
    last ||= url.hostname;
    return { bytes: Buffer.concat(chunks), name: last.slice(0, 200) };
  }
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw refused('The spreadsheet link is not a valid URL.');
  }
  return url;
}

function checkUrl(url: URL, allow: readonly string[]): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refused(`Only http and https links are read, not ${url.protocol.replace(/:$/, '')}.`);
  if (url.username || url.password) throw refused('Links carrying a user name or password are not read.');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !isPublicAddress(host, allow))
    throw refused('The link points to a private, loopback, link-local or metadata address.');
}

/** A DNS lookup that refuses private answers: the connection uses exactly the addresses it returns. */
function guardedLookup(allow: readonly string[]): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 4);
      const bad = addresses.find((a) => !isPublicAddress(a.address, allow));
      if (bad || addresses.length === 0) {
        const e = Object.assign(new Error('address refused'), { code: 'CDS_ADDRESS_REFUSED' });
        return callback(e, '', 4);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

/**
 * The response of one GET, and `broken()`: whether the request failed after the response came (a reset or the
 * time limit mid-body), which a body that ends at the connection's close does not report itself.
 */
function get(
  url: URL,
  allow: readonly string[],
  signal: AbortSignal,
  timeoutMs: number,
): Promise<{ res: IncomingMessage; broken: () => boolean }> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  let failure = false;
  const broken = () => failure;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'GET',
        lookup: guardedLookup(allow),
        signal,
        headers: { Accept: 'text/csv, text/plain;q=0.9, */*;q=0.1', 'User-Agent': 'contact-data-service' },
      },
      (res) => resolve({ res, broken }),
    );
    req.on('error', (e: NodeJS.ErrnoException) => {
      failure = true;
      if (e.code === 'CDS_ADDRESS_REFUSED')
        reject(refused('The link resolves to a private, loopback, link-local or metadata address.'));
      else if (signal.aborted) reject(tooSlow(timeoutMs));
      else reject(failed(`The link could not be reached (${e.code ?? e.message}).`));
    });
    req.end();
  });
}
