import type { TestApp } from './test-app.js';

/** A console session over plain HTTP (what the browser does, without one): sign-in, cookie, CSRF token. */
export interface ConsoleClient {
  cookie: string;
  token: string;
  csrf: string;
  setCookie: string;
  call(
    method: string,
    path: string,
    opts?: { body?: unknown; csrf?: string | null; headers?: Record<string, string> },
  ): Promise<{
    status: number;
    headers: Headers;
    body: any;
  }>;
}

export async function consoleSignIn(app: TestApp, apiKey: string): Promise<ConsoleClient> {
  const res = await fetch(`${app.url}/app/api/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ api_key: apiKey }),
  });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  const setCookie = res.headers.get('set-cookie') ?? '';
  const token = /cds_session=([^;]+)/.exec(setCookie)?.[1] ?? '';
  const body = (await res.json()) as { csrf_token: string };
  const cookie = `cds_session=${token}`;
  return {
    cookie,
    token,
    csrf: body.csrf_token,
    setCookie,
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { Cookie: cookie, ...(opts.headers ?? {}) };
      const csrf = opts.csrf === undefined ? body.csrf_token : opts.csrf;
      if (csrf !== null) headers['X-CSRF-Token'] = csrf;
      let payload: string | undefined;
      if (opts.body !== undefined) {
        payload = JSON.stringify(opts.body);
        headers['Content-Type'] = 'application/json';
      }
      const r = await fetch(`${app.url}${path}`, {
        method,
        headers,
        redirect: 'manual',
        ...(payload !== undefined ? { body: payload } : {}),
      });
      const text = await r.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
      return { status: r.status, headers: r.headers, body: parsed as any };
    },
  };
}
