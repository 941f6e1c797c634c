/**
 * What the benches' HTTP client adds by itself: the same answer (a 100-row page of about 40 KB of JSON) from a bare
 * node:http server in this process, fetched with `fetch` and with node:http over a kept-alive connection, alternated.
 * The difference is client-side work that the service's figures should not carry (bench/lib/http.ts).
 *
 *   node dist/bench/client-overhead.js [--calls 2000]
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { machine } from './lib/machine.js';
import { percentile, round, timed } from './lib/stats.js';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '2000' } } });
const calls = Number(values.calls);
const page = JSON.stringify({
  ok: true,
  data: Array.from({ length: 100 }, (_, i) => ({ id: `per_${i}`, name: 'x'.repeat(380) })),
});
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.setHeader('Content-Type', 'application/json');
    res.end(page);
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

const viaFetch = async (): Promise<unknown> =>
  (await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).json();
const viaHttp = (): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { 'Content-Type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    });
    req.on('error', reject);
    req.end('{}');
  });

const samples = { fetch: [] as number[], http: [] as number[] };
for (let i = 0; i < 300; i++) {
  await viaFetch();
  await viaHttp();
}
for (let i = 0; i < calls; i++) {
  samples.fetch.push((await timed(viaFetch)).ms);
  samples.http.push((await timed(viaHttp)).ms);
}
server.close();
agent.destroy();

const summary = {
  calls,
  machine: machine(),
  at: new Date().toISOString(),
  response_bytes: page.length,
  fetch_p50_ms: round(percentile(samples.fetch, 50), 3),
  fetch_p95_ms: round(percentile(samples.fetch, 95), 3),
  node_http_p50_ms: round(percentile(samples.http, 50), 3),
  node_http_p95_ms: round(percentile(samples.http, 95), 3),
};
mkdirSync(join(process.cwd(), 'bench', 'results'), { recursive: true });
writeFileSync(join(process.cwd(), 'bench', 'results', 'client-overhead.json'), `${JSON.stringify(summary, null, 2)}\n`);
process.stdout.write(
  `fetch p50 ${summary.fetch_p50_ms} ms, node:http (kept alive) p50 ${summary.node_http_p50_ms} ms, for the same ` +
    `${page.length}-byte answer\n`,
);
