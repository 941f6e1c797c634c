import http from 'node:http';

/** The benches' two HTTP clients: node:http over one kept-alive connection, and `fetch` (what a Node user's script uses). */
export type BenchClient = 'node' | 'fetch';
export const BENCH_CLIENTS: readonly BenchClient[] = ['node', 'fetch'];

/** Reads a `--client` option: node (the default) or fetch. */
export function benchClient(value: string | undefined): BenchClient {
  const c = (value ?? 'node') as BenchClient;
  if (!BENCH_CLIENTS.includes(c)) throw new Error(`--client is node or fetch, not ${value}`);
  return c;
}

/**
 * A POST of the family A API with a key; any answer but 200 stops the benchmark with its body. With `node` (the
 * default) requests go over one kept-alive connection with node:http (as the PostgreSQL peer keeps one client
 * connection); `fetch` (undici, kept alive too) adds client-side work of its own to every call
 * (bench/client-overhead.ts: 0.38 against 0.22 ms p50 for a 40 KB answer), which is what a user's script pays.
 */
export function poster(baseUrl: string, key: string, client: BenchClient = 'node') {
  if (client === 'fetch') return fetchPoster(baseUrl, key);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return function post(path: string, body: unknown): Promise<any> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        `${baseUrl}${path}`,
        { method: 'POST', agent, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            try {
              const json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
              if (res.statusCode !== 200)
                reject(new Error(`${path} ${res.statusCode} ${JSON.stringify(json).slice(0, 300)}`));
              else resolve(json);
            } catch (e) {
              reject(e);
            }
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  };
}

function fetchPoster(baseUrl: string, key: string) {
  return async function post(path: string, body: unknown): Promise<any> {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (res.status !== 200) throw new Error(`${path} ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
}

/** A GET without a key (`/health`), with either client; any answer but 200 stops the benchmark. */
export function getter(baseUrl: string, client: BenchClient = 'node') {
  if (client === 'fetch')
    return async (path: string): Promise<any> => {
      const res = await fetch(`${baseUrl}${path}`);
      const json = await res.json();
      if (res.status !== 200) throw new Error(`${path} ${res.status}`);
      return json;
    };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return (path: string): Promise<any> =>
    new Promise((resolve, reject) => {
      http
        .get(`${baseUrl}${path}`, { agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            if (res.statusCode !== 200) return reject(new Error(`${path} ${res.statusCode}`));
            try {
              resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
            } catch (e) {
              reject(e);
            }
          });
          res.on('error', reject);
        })
        .on('error', reject);
    });
}
