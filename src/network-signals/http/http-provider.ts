import type { CollectOptions, Engager, EngagerBatch, NetworkSource, SignalTarget } from '../port.js';
import { ENGAGEMENTS, SourceError } from '../port.js';

/**
 * NetworkSource over an HTTP signals provider (CDS_SIGNALS_PROVIDER_URL). The contract, JSON both ways,
 * `Authorization: Bearer <CDS_SIGNALS_PROVIDER_TOKEN>` when a token is set:
 *
 *   POST {endpoint}/estimate  {kind, target}                 -> 200 {count: integer >= 0}
 *   POST {endpoint}/collect   {kind, target, cursor, limit}  -> 200 {items: Engager[], next_cursor: string | null}
 *
 * `target` is the canonical URL, `cursor` null on the first call then the previous `next_cursor`, `limit`
 * the most items wanted (the provider may send fewer). An item is {name, headline|null, profile_url,
 * engagement: reaction|comment|follow, post_url|null, at: RFC 3339}. 404 means the network does not know
 * the target. Each call has a timeout; timeouts, network errors, 429 and 5xx are retried with exponential
 * backoff a bounded number of times; other answers fail at once with a text saying what to do.
 */
export interface HttpProviderOptions {
  url: string;
  token: string;
  timeoutMs: number;
  /** Retries after the first attempt. */
  retries: number;
  /** First backoff; doubles each retry. */
  backoffMs: number;
  batchSize?: number;
}

export class HttpNetworkSource implements NetworkSource {
  readonly name = 'http';
  private readonly endpoint: string;

  constructor(private readonly opts: HttpProviderOptions) {
    this.endpoint = opts.url.replace(/\/+$/, '');
  }

  async estimate(target: SignalTarget, signal?: AbortSignal): Promise<number> {
    const body = await this.call('estimate', { kind: target.kind, target: target.url }, target, signal);
    const count = (body as { count?: unknown }).count;
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0)
      throw malformed('estimate', '`count` is not a whole number >= 0');
    return count;
  }

  async *collect(target: SignalTarget, options: CollectOptions): AsyncIterable<EngagerBatch> {
    let cursor = options.cursor;
    let left = options.limit;
    while (left > 0) {
      const limit = Math.min(left, this.opts.batchSize ?? 100);
      const body = (await this.call(
        'collect',
        { kind: target.kind, target: target.url, cursor, limit },
        target,
        options.signal,
      )) as { items?: unknown; next_cursor?: unknown };
      if (!Array.isArray(body.items)) throw malformed('collect', '`items` is not an array');
      if (body.next_cursor !== null && typeof body.next_cursor !== 'string')
        throw malformed('collect', '`next_cursor` is neither a string nor null');
      const items = body.items.slice(0, limit).map((item, i) => toEngager(item, i));
      if (body.next_cursor !== null && body.next_cursor === cursor)
        throw malformed('collect', '`next_cursor` repeats the cursor sent');
      left -= items.length;
      cursor = body.next_cursor;
      // A provider that sends nothing yet names a next page would loop forever: treat it as the end.
      const next = items.length === 0 ? null : cursor;
      yield { items, nextCursor: left > 0 ? next : null };
      if (next === null) return;
    }
  }

  private async call(
    path: 'estimate' | 'collect',
    payload: Record<string, unknown>,
    target: SignalTarget,
    signal?: AbortSignal,
  ): Promise<unknown> {
    const url = `${this.endpoint}/${path}`;
    let last = '';
    for (let attempt = 0; attempt <= this.opts.retries; attempt++) {
      if (attempt > 0) await sleep(this.opts.backoffMs * 2 ** (attempt - 1), signal);
      if (signal?.aborted) throw new SourceError('The collection was stopped.', 'transient');
      const timeout = AbortSignal.timeout(this.opts.timeoutMs);
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json',
            ...(this.opts.token ? { Authorization: `Bearer ${this.opts.token}` } : {}),
          },
          body: JSON.stringify(payload),
          signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
        });
      } catch (e) {
        if (signal?.aborted) throw new SourceError('The collection was stopped.', 'transient');
        last = timeout.aborted
          ? `gave no answer within ${this.opts.timeoutMs} ms`
          : `could not be reached ` +
            `(${(e as Error).cause instanceof Error ? ((e as Error).cause as Error).message : (e as Error).message})`;
        continue;
      }
      if (res.status === 429 || res.status >= 500) {
        await res.body?.cancel().catch(() => undefined);
        last = `answered HTTP ${res.status}`;
        continue;
      }
      let text: string;
      try {
        text = await res.text();
      } catch {
        last = timeout.aborted ? `gave no complete answer within ${this.opts.timeoutMs} ms` : 'broke off its answer';
        continue;
      }
      if (res.status === 404)
        throw new SourceError(
          `The network does not know ${target.url}; check that the URL opens the ` +
            `${target.kind.replace('network_', '')} and send it again.`,
          'not_found',
        );
      if (res.status === 401 || res.status === 403) {
        throw new SourceError(
          `The signals provider refused the service's credentials (HTTP ${res.status}); the operator must check ` +
            `CDS_SIGNALS_PROVIDER_TOKEN.`,
          'refused',
        );
      }
      if (res.status < 200 || res.status >= 300) {
        throw new SourceError(
          `The signals provider refused the request (HTTP ${res.status}: ${snippet(text)}); check the target, and ` +
            `report it to the operator if it persists.`,
          'refused',
        );
      }
      try {
        const body = JSON.parse(text) as unknown;
        if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error('not an object');
        return body;
      } catch {
        throw malformed(path, `the body is not a JSON object (${snippet(text)})`);
      }
    }
    throw new SourceError(
      `The signals provider ${last} after ${this.opts.retries + 1} attempts; start the collect again in a few minutes.`,
      'transient',
    );
  }
}

function toEngager(raw: unknown, i: number): Engager {
  const bad = (what: string) => malformed('collect', `item ${i}: ${what}`);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw bad('not an object');
  const r = raw as Record<string, unknown>;
  if (typeof r.name !== 'string' || r.name.trim() === '') throw bad('`name` is missing');
  if (r.headline !== undefined && r.headline !== null && typeof r.headline !== 'string')
    throw bad('`headline` is not a string');
  if (typeof r.profile_url !== 'string' || !/^https?:\/\/\S+$/i.test(r.profile_url))
    throw bad('`profile_url` is not a URL');
  if (typeof r.engagement !== 'string' || !ENGAGEMENTS.includes(r.engagement as Engager['engagement']))
    throw bad(`\`engagement\` is not one of ${ENGAGEMENTS.join(', ')}`);
  if (r.post_url !== undefined && r.post_url !== null && typeof r.post_url !== 'string')
    throw bad('`post_url` is not a string');
  const at = typeof r.at === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(r.at) ? new Date(r.at) : undefined;
  if (!at || Number.isNaN(at.getTime())) throw bad('`at` is not an RFC 3339 time');
  return {
    name: r.name.trim().slice(0, 300),
    headline: typeof r.headline === 'string' ? r.headline.slice(0, 500) : null,
    profile_url: r.profile_url,
    engagement: r.engagement as Engager['engagement'],
    post_url: typeof r.post_url === 'string' ? r.post_url : null,
    at: at.toISOString(),
  };
}

function malformed(path: string, what: string): SourceError {
  return new SourceError(
    `The signals provider answered malformed data to ${path} (${what}); start the collect again later, and report ` +
      `it to the operator if it persists.`,
    'malformed',
  );
}

function snippet(text: string): string {
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length > 120 ? `${s.slice(0, 120)}…` : s || 'empty body';
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
