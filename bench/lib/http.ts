import http from 'node:http';

/**
 * A POST of the family A API with a key; any answer but 200 stops the benchmark with its body. Requests go over
 * one kept-alive connection with node:http (as the PostgreSQL peer keeps one client connection): `fetch` adds
 * client-side work of its own to every call (bench/client-overhead.ts: 0.38 against 0.22 ms p50 for a 40 KB answer).
 */
export function poster(baseUrl: string, key: string) {
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
