/**
 * The floor under a count or a first page over HTTP: a suite query (by default `name-contains`, no match, counted by
 * PostgreSQL's pg_trgm index in well under a millisecond) timed three ways, alternated call by call:
 *   - `bare`: a node:http server in a process of its own that does nothing but send the service's own answer bytes;
 *   - `service`: the same call to `cds serve`;
 *   - `postgres`: the same statement on the peer's table (bench/peer-postgres), over its SQL client.
 * Each is timed back to back and after a 10 ms pause in which every process sits idle, as in the peer's interleaved
 * run, where each side waits while the other answers. What the bare server costs after a pause is what any HTTP
 * answer of that size from a Node process costs on this machine before the service does any work. `--page` times the
 * first page of 100 rows (the peer's first-page statement, the service's search) instead of the count.
 *
 *   node dist/bench/http-floor.js [--contacts 1000000] [--data DIR] [--calls 1000] [--pg URL] [--query NAME] [--page]
 *     [--health] [--client node|fetch] [--server-timing] [--no-postgres] [--tag T]
 *
 * `--health` times GET /health (no key; PostgreSQL's side `SELECT 1`). `--client fetch` calls with `fetch` (what a
 * Node user's script uses) instead of node:http over one kept-alive connection; both sides use the same client.
 *
 * `--no-postgres` leaves PostgreSQL out (a release larger than the peer's table can be copied into here in the time at
 * hand): the bare server and the service alternate alone.
 *
 * `--server-timing` also times each call inside the bare server's and the service's processes, from Node's request
 * event to the answer handed to the socket (lib/server-timing.ts): the server's own part of each side, without the
 * client, the transfer and the wait to be scheduled (`server_handling` in the results).
 *
 * Writes bench/results/http-floor-<contacts>[-<query>[-page]|-health][-fetch][-<tag>].json (the query's name only
 * with --page or --query).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchDataDir, benchKey } from './lib/bench-data.js';
import { benchClient, getter, poster } from './lib/http.js';
import { machine } from './lib/machine.js';
import { querySuite } from './lib/query-suite.js';
import { startBenchServer } from './lib/server.js';
import { serverTimingEnv, serverTimings } from './lib/server-timing.js';
import { percentile, round, timed } from './lib/stats.js';
import { peerSql } from './peer-postgres/compile.js';
import { connectPeer, TABLE } from './peer-postgres/load.js';

const { values } = parseArgs({
  options: {
    contacts: { type: 'string', default: '1000000' },
    data: { type: 'string' },
    calls: { type: 'string', default: '1000' },
    pg: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
    query: { type: 'string', default: 'name-contains' },
    page: { type: 'boolean', default: false },
    tag: { type: 'string' },
    'server-timing': { type: 'boolean', default: false },
    /** node (node:http, one kept-alive connection) or fetch (what a Node user's script uses). */
    client: { type: 'string', default: 'node' },
    /** Times GET /health (no key) instead of a query; PostgreSQL's side is `SELECT 1`. */
    health: { type: 'boolean', default: false },
    /** Leaves PostgreSQL out: the bare server and the service only. */
    'no-postgres': { type: 'boolean', default: false },
    'serve-bare': { type: 'boolean', default: false },
  },
});

if (values['serve-bare']) {
  // The bare server: the answer's bytes (read from stdin: a page is too long for an argument), after reading the
  // request's body, as the service answers.
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  // Exits on SIGTERM through process.exit, so that `--server-timing` writes its file.
  process.once('SIGTERM', () => process.exit(0));
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
} else {
  await measure();
}

async function measure(): Promise<void> {
  const root = process.cwd();
  const contacts = Number(values.contacts);
  const calls = Number(values.calls);
  const log = (s: string): boolean => process.stdout.write(s);
  const dir = benchDataDir(root, contacts, values.data);
  const key = benchKey(root, dir);
  const queryName = values.query;
  const page = values.page;
  const health = values.health;
  const client = benchClient(values.client);
  const query = (await querySuite(dir)).find((q) => q.name.startsWith(queryName));
  if (!query) throw new Error(`the query suite has no query named ${queryName}`);
  if (query.familyB) throw new Error(`${query.name} is a family B query: this bench times family A calls`);

  const db = values['no-postgres'] ? null : await connectPeer(values.pg, dir, log);
  const sql: [string, unknown[]] = health ? ['SELECT 1', []] : peerSql(TABLE, query.filter)[page ? 'first' : 'count'];
  const path = health ? '/health' : page ? '/v1/contacts/search' : '/v1/contacts/count';
  const body = page ? { filter: query.filter, limit: 100 } : { filter: query.filter };
  const caller = (base: string) => {
    if (health) {
      const get = getter(base, client);
      return () => get(path);
    }
    const post = poster(base, key, client);
    return () => post(path, body);
  };

  const timingDir = values['server-timing'] ? mkdtempSync(join(tmpdir(), 'cds-server-timing-')) : null;
  const timingPrefix = timingDir ? join(timingDir, 'server') : null;
  const timingEnv = timingPrefix ? serverTimingEnv(timingPrefix) : {};
  const server = await startBenchServer(dir, timingEnv);
  const callService = caller(server.url);
  const answer = JSON.stringify(await callService());
  const bare = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve-bare'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...timingEnv },
  });
  const bareExited = new Promise<void>((resolve) => bare.once('exit', () => resolve()));
  bare.stdin.end(answer);
  const port = await new Promise<string>((resolve, reject) => {
    bare.stdout.once('data', (b: Buffer) => resolve(b.toString().trim()));
    bare.once('exit', (code) => reject(new Error(`the bare server exited (${code})`)));
  });
  const callBare = caller(`http://127.0.0.1:${port}`);

  type Side = 'bare' | 'service' | 'postgres';
  const sides: Partial<Record<Side, () => Promise<unknown>>> = {
    bare: callBare,
    service: callService,
    ...(db ? { postgres: () => db.query(...sql) } : {}),
  };
  const sideNames = Object.keys(sides) as Side[];
  const modes = { back_to_back: 0, after_10ms_idle: 10 };
  const results: Record<string, Partial<Record<Side, { p50: number; p95: number }>>> = {};
  const WARMUP = 200;
  try {
    for (let i = 0; i < WARMUP; i++) for (const side of sideNames) await sides[side]!();
    for (const [mode, pauseMs] of Object.entries(modes)) {
      const samples: Record<Side, number[]> = { bare: [], service: [], postgres: [] };
      for (let i = 0; i < calls; i++)
        for (const side of sideNames) {
          if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
          samples[side].push((await timed(sides[side]!)).ms);
        }
      const row = Object.fromEntries(
        sideNames.map((s) => [
          s,
          { p50: round(percentile(samples[s], 50), 3), p95: round(percentile(samples[s], 95), 3) },
        ]),
      ) as Partial<Record<Side, { p50: number; p95: number }>>;
      results[mode] = row;
      log(
        `${mode.padEnd(16)} p50  bare HTTP ${row.bare!.p50} ms   service ${row.service!.p50} ms` +
          `${row.postgres ? `   PostgreSQL ${row.postgres.p50} ms` : ''}\n`,
      );
    }
  } finally {
    bare.kill();
    await bareExited;
    await server.stop();
    await db?.end();
  }
  // Each process timed every call it answered, in order: the service the call that fetched the answer first, then both
  // the warm-up and each mode's calls.
  let serverHandling: Record<string, Record<'bare' | 'service', { p50: number; p95: number }>> | null = null;
  if (timingDir && timingPrefix) {
    const recorded = {
      bare: serverTimings(timingPrefix, bare.pid!).slice(WARMUP),
      service: serverTimings(timingPrefix, server.pid).slice(1 + WARMUP),
    };
    rmSync(timingDir, { recursive: true, force: true });
    serverHandling = {};
    for (const [m, mode] of Object.keys(modes).entries()) {
      const row = Object.fromEntries(
        (['bare', 'service'] as const).map((side) => {
          const part = recorded[side].slice(m * calls, (m + 1) * calls);
          if (part.length !== calls) throw new Error(`the ${side} process timed ${recorded[side].length} calls`);
          return [side, { p50: round(percentile(part, 50), 3), p95: round(percentile(part, 95), 3) }];
        }),
      ) as Record<'bare' | 'service', { p50: number; p95: number }>;
      serverHandling[mode] = row;
      log(`${mode.padEnd(16)} inside the process, p50  bare ${row.bare.p50} ms   service ${row.service.p50} ms\n`);
    }
  }
  const summary = {
    contacts,
    calls,
    query: health ? null : query.name,
    call: health ? 'GET /health' : page ? 'first page of 100 rows' : 'count',
    client,
    answer_bytes: Buffer.byteLength(answer),
    tag: values.tag ?? null,
    machine: machine(),
    at: new Date().toISOString(),
    ...results,
    ...(serverHandling ? { server_handling: serverHandling } : {}),
  };
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  const named = health ? '-health' : page || queryName !== 'name-contains' ? `-${queryName}${page ? '-page' : ''}` : '';
  const clientPart = client === 'node' ? '' : `-${client}`;
  const out = join(
    root,
    'bench',
    'results',
    `http-floor-${contacts}${named}${clientPart}${values.tag ? `-${values.tag}` : ''}.json`,
  );
  writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`);
  log(`wrote ${out}\n`);
}
