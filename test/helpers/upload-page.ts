import type { TestApp } from './test-app.js';

/**
 * The upload page's own form endpoints, called over HTTP as the page's script calls them: the signed link's
 * path plus `/file`, `/url`, `/estimate`, `/start`, `/run` or `/state`, with the link's query string.
 */
export function uploadPageClient(link: string) {
  const url = new URL(link);
  const at = (action: string) => `${url.origin}${url.pathname}/${action}${url.search}`;
  const json = async (res: Response) => {
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body };
  };
  return {
    at,
    page: () => fetch(link).then(async (r) => ({ status: r.status, text: await r.text(), headers: r.headers })),
    file: (bytes: Uint8Array | string, name = 'people.csv') =>
      fetch(at('file'), {
        method: 'POST',
        headers: { 'Content-Type': 'text/csv', 'X-File-Name': encodeURIComponent(name) },
        body: bytes,
      }).then(json),
    url: (sheetUrl: string) =>
      fetch(at('url'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: sheetUrl }),
      }).then(json),
    post: (action: 'estimate' | 'start', body: unknown) =>
      fetch(at(action), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }).then(json),
    get: (action: 'state' | 'run') => fetch(at(action)).then(json),
  };
}

/** Polls until the check returns a value (real time; the run is a job of the app's runner). */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

export type { TestApp };
