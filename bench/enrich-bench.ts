/**
 * Enrichment benchmark (issue 4): POST /v1/enrichments with 100 mixed inputs (work emails in several forms,
 * phones, profile URLs, and misses) over HTTP against a warm server.
 *
 *   node dist/bench/enrich-bench.js --contacts 1000000 [--data DIR] [--runs 100] [--warmup 10] [--tag T]
 *
 * The identifiers are those of a random sample of the whole release (read from the release file before the
 * server starts), one per sampled contact, and no contact is sampled twice: every call looks up rows the
 * server has not read for an earlier call, as a production workload would (a phone shared by several
 * contacts can still come twice). The first `--warmup` calls (process and index start-up) are
 * reported apart. Prints p50/p95 and writes bench/results/enrich-<N>.json (enrich-<N>-<T>.json with --tag,
 * for a run under other conditions: without the point store, after dropping the OS page cache).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { benchDataDir, benchKey } from './lib/bench-data.js';
import { poster } from './lib/http.js';
import { machine } from './lib/machine.js';
import { startBenchServer } from './lib/server.js';
import { percentile, round, timed } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    contacts: { type: 'string', default: '1000000' },
    data: { type: 'string' },
    runs: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '10' },
    tag: { type: 'string' },
  },
});
const root = process.cwd();
const contacts = Number(values.contacts);
const runs = Number(values.runs);
const warmup = Number(values.warmup);
const dir = benchDataDir(root, contacts, values.data);
const key = benchKey(root, dir);

let seed = 7;
const rand = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};

/** Identifiers of a uniform sample of stored contacts, one kind per contact, in random order. */
async function sampleIdentifiers(n: number): Promise<string[]> {
  const releases = join(dir, 'releases');
  const file = join(releases, (JSON.parse(readFileSync(join(releases, 'CURRENT'), 'utf8')) as { file: string }).file);
  const db = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const conn = await db.connect();
  try {
    const reader = await conn.runAndReadAll(
      `SELECT work_email, mobile_phone, direct_phone, network FROM contacts USING SAMPLE reservoir(${n} ROWS) ` +
        `REPEATABLE (42)`,
    );
    const out: string[] = [];
    for (const [email, mobile, direct, network] of reader.getRows() as (string | null)[][]) {
      // Mostly emails (the common enrichment), then phones and profile URLs; an email in a third of cases
      // in the display-name form, upper-cased.
      const r = rand();
      const pick = r < 0.5 ? email : r < 0.7 ? (mobile ?? direct) : r < 0.8 ? (direct ?? mobile) : network;
      const id = pick ?? email ?? network ?? mobile ?? direct;
      if (!id) continue;
      out.push(id === email && out.length % 3 === 0 ? `Someone <${id.toUpperCase()}>` : id);
    }
    // Shuffled: a call's inputs are scattered over the table, not neighbours in the sample's order.
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

const calls = warmup + runs;
const stored = await sampleIdentifiers(Math.ceil(calls * 100 * 0.9));
const server = await startBenchServer(dir);
const post = poster(server.url, key);
// Which path answers the lookups: the release's point store, or its columns (a release without one).
const health = (await (await fetch(`${server.url}/v1/health`)).json()) as {
  data: { engine: { point_reads?: boolean } };
};

// Each call: about 90 stored identifiers and 10 misses (unknown emails and phones), shuffled; none repeats.
let next = 0;
let miss = 0;
function nextInputs(): string[] {
  const inputs: string[] = [];
  while (inputs.length < 100) {
    if (rand() < 0.1 || next >= stored.length) {
      miss++;
      inputs.push(
        miss % 2
          ? `nobody${miss}@nowhere-${miss}.example`
          : `+1 415 555 ${String(1000 + (miss % 9000)).padStart(4, '0')}`,
      );
    } else inputs.push(stored[next++]!);
  }
  return inputs;
}

const warm: number[] = [];
const times: number[] = [];
let matched = 0;
try {
  for (let i = 0; i < calls; i++) {
    const t = await timed(() => post('/v1/enrichments', { inputs: nextInputs() }));
    if (!Array.isArray(t.value.data)) throw new Error(`enrichment failed: ${JSON.stringify(t.value).slice(0, 300)}`);
    if (i < warmup) {
      warm.push(t.ms);
      continue;
    }
    times.push(t.ms);
    matched += t.value.data.filter((r: { matched: boolean }) => r.matched).length;
  }
} finally {
  const peak = server.peakRssMb();
  await server.stop();
  const summary = {
    contacts,
    ...(values.tag ? { tag: values.tag } : {}),
    runs,
    inputs_per_call: 100,
    point_reads: health.data.engine.point_reads ?? null,
    identifiers_sent: next + miss,
    matched_share: round(matched / (runs * 100), 2),
    warmup_calls: warmup,
    warmup_p50_ms: round(percentile(warm, 50)),
    p50_ms: round(percentile(times, 50)),
    p95_ms: round(percentile(times, 95)),
    server_peak_rss_mb: round(peak),
    machine: machine(),
    at: new Date().toISOString(),
  };
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(
    join(root, 'bench', 'results', `enrich-${contacts}${values.tag ? `-${values.tag}` : ''}.json`),
    `${JSON.stringify(summary, null, 2)}\n`,
  );
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
}
