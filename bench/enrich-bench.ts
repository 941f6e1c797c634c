/**
 * Enrichment benchmark (issues 4 and 17) over HTTP against a warm server.
 *
 *   node dist/bench/enrich-bench.js --contacts 1000000 [--data DIR] [--runs 100] [--warmup 10] [--tag T]
 *        [--all-columns] [--family b [--batch 100]] [--no-point-store]
 *
 * Family A (default): POST /v1/enrichments with 100 mixed inputs (work emails in several forms, phones, profile
 * URLs, and misses); `--all-columns` asks for `columns: ["*"]`. Writes bench/results/enrich-<N>[-tag].json.
 *
 * Family B (`--family b`): POST /api/v1/enrich/from-network, /from-email and /from-person, `--batch` items a call
 * (profile URLs, emails, first and last name with the company domain or name), about a tenth of them misses; per
 * route the call latency p50/p95, the same per item and the items a second of calls sent one after another.
 * Writes bench/results/enrich-family-b-<N>[-tag].json.
 *
 * `--no-point-store` moves the release's `<id>.points.sqlite` aside while the server runs (put back at the end, or
 * at the start of the next run if this one was killed), so every read takes the path of a release without one:
 * point reads from DuckDB's lookup indexes, index pages from the columns. Its results get the tag no-point-store.
 *
 * The identifiers are those of a random sample of the whole release (read from the release file before the
 * server starts), one per sampled contact, and no contact is sampled twice: every call looks up rows the
 * server has not read for an earlier call, as a production workload would (a phone shared by several
 * contacts can still come twice). The first `--warmup` calls (process and index start-up) are
 * reported apart.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import Database from 'better-sqlite3';
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
    family: { type: 'string', default: 'a' },
    batch: { type: 'string', default: '100' },
    'all-columns': { type: 'boolean', default: false },
    'no-point-store': { type: 'boolean', default: false },
  },
});
const root = process.cwd();
const contacts = Number(values.contacts);
const runs = Number(values.runs);
const warmup = Number(values.warmup);
const familyB = values.family.toLowerCase() === 'b';
const batch = familyB ? Number(values.batch) : 100;
const allColumns = values['all-columns'];
const noPointStore = values['no-point-store'];
if (!['a', 'b'].includes(values.family.toLowerCase())) throw new Error('--family is a or b');
if (!(batch >= 1 && batch <= 100)) throw new Error('--batch is 1 to 100');
const dir = benchDataDir(root, contacts, values.data);
const key = benchKey(root, dir);
const tag =
  [values.tag, allColumns && !familyB ? 'all-columns' : undefined, noPointStore ? 'no-point-store' : undefined]
    .filter(Boolean)
    .join('-') || undefined;

let seed = 7;
const rand = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
function shuffle<T>(a: T[]): T[] {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

const releases = join(dir, 'releases');
const releaseFile = join(
  releases,
  (JSON.parse(readFileSync(join(releases, 'CURRENT'), 'utf8')) as { file: string }).file,
);
const pointStore = `${releaseFile.replace(/\.duckdb$/, '')}.points.sqlite`;
const aside = `${pointStore}.aside`;

/**
 * The card layout of the release's point store (null without one): a store written before the names joined the
 * cards answers the family B enrichments from the release's columns, so its figures are not the point path's.
 */
function cardLayout(): string[] | null {
  const file = existsSync(pointStore) ? pointStore : existsSync(aside) ? aside : null;
  if (!file) return null;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const v = db.prepare("SELECT value FROM meta WHERE key = 'card_columns'").pluck().get();
    return typeof v === 'string' ? (JSON.parse(v) as string[]) : null;
  } finally {
    db.close();
  }
}
const layout = cardLayout();
const cardsHoldNames = ['first_name', 'last_name', 'company_name_norm'].every((c) => layout?.includes(c) ?? false);
if (familyB && !cardsHoldNames)
  process.stderr.write(
    "warning: this release's cards lack the names (loaded by an older build, or no point store): every family B " +
      'read takes the columns; load the data again with this build for the point path.\n',
  );

type Sampled = Record<
  | 'work_email'
  | 'mobile_phone'
  | 'direct_phone'
  | 'network'
  | 'first_name'
  | 'last_name'
  | 'company'
  | 'company_domain',
  string | null
>;

/** A uniform sample of stored contacts, in random order (a call's inputs are scattered over the table). */
async function sampleContacts(n: number): Promise<Sampled[]> {
  const db = await DuckDBInstance.create(releaseFile, { access_mode: 'READ_ONLY' });
  const conn = await db.connect();
  try {
    const reader = await conn.runAndReadAll(
      'SELECT work_email, mobile_phone, direct_phone, network, first_name, last_name, company, company_domain FROM ' +
        `contacts USING SAMPLE reservoir(${n} ROWS) REPEATABLE (42)`,
    );
    return shuffle(reader.getRowObjectsJson() as unknown as Sampled[]);
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

/** Family A identifiers: one kind per contact, mostly emails (a third in the display-name form, upper-cased). */
function familyAIdentifiers(rows: readonly Sampled[]): string[] {
  const out: string[] = [];
  for (const { work_email: email, mobile_phone: mobile, direct_phone: direct, network } of rows) {
    const r = rand();
    const pick = r < 0.5 ? email : r < 0.7 ? (mobile ?? direct) : r < 0.8 ? (direct ?? mobile) : network;
    const id = pick ?? email ?? network ?? mobile ?? direct;
    if (!id) continue;
    out.push(id === email && out.length % 3 === 0 ? `Someone <${id.toUpperCase()}>` : id);
  }
  return out;
}

interface Route {
  name: string;
  path: string;
  /** The stored items to send, one per sampled contact that has what the route asks by. */
  stored: unknown[];
  miss(n: number): unknown;
  /** The answer's results, checked to be an array of as many items as sent. */
  results(body: any): { success?: boolean; matched?: boolean }[];
  body(items: unknown[]): unknown;
}

/** The three family B enrichments over disjoint thirds of the sample. */
function familyBRoutes(rows: readonly Sampled[]): Route[] {
  const third = Math.floor(rows.length / 3);
  const part = (k: number) => rows.slice(k * third, (k + 1) * third);
  const anyUrl = rows.find((r) => r.network)?.network ?? 'https://www.network.com/in/x';
  const asked = (v: string): string => (rand() < 0.3 ? v.toLowerCase() : v);
  const results = (body: any) => body.results;
  return [
    {
      name: 'from-network',
      path: '/api/v1/enrich/from-network',
      stored: part(0)
        .filter((r) => r.network)
        .map((r) => ({ network_url: r.network })),
      miss: (n) => ({ network_url: anyUrl.replace(/\/in\/[^/?#]+/, `/in/nobody-here-${n}`) }),
      results,
      body: (items) => ({ items }),
    },
    {
      name: 'from-email',
      path: '/api/v1/enrich/from-email',
      stored: part(1)
        .filter((r) => r.work_email)
        .map((r) => ({ email: r.work_email })),
      miss: (n) => ({ email: `nobody${n}@nowhere-${n}.example` }),
      results,
      body: (items) => ({ items }),
    },
    {
      name: 'from-person',
      path: '/api/v1/enrich/from-person',
      // By domain mostly, by the company's name in a third of the items; names sometimes lower-cased.
      stored: part(2)
        .filter((r) => r.first_name && r.last_name && (r.company_domain || r.company))
        .map((r) => ({
          first_name: asked(r.first_name!),
          last_name: asked(r.last_name!),
          ...(r.company_domain && rand() < 0.7 ? { company_domain: r.company_domain } : { company_name: r.company! }),
        })),
      // Someone unknown at a stored company: the company's employees are still read.
      miss: (n) => {
        const r = rows[n % rows.length]!;
        return { first_name: `Nobody${n}`, last_name: 'Here', company_domain: r.company_domain ?? 'nowhere.example' };
      },
      results,
      body: (items) => ({ items }),
    },
  ];
}

function familyARoute(rows: readonly Sampled[]): Route {
  return {
    name: allColumns ? 'enrichments, columns ["*"]' : 'enrichments',
    path: '/v1/enrichments',
    stored: familyAIdentifiers(rows),
    miss: (n) =>
      n % 2 ? `nobody${n}@nowhere-${n}.example` : `+1 415 555 ${String(1000 + (n % 9000)).padStart(4, '0')}`,
    results: (body) => body.data,
    body: (inputs) => ({ inputs, ...(allColumns ? { columns: ['*'] } : {}) }),
  };
}

interface RouteFigures {
  calls: number;
  items_per_call: number;
  identifiers_sent: number;
  success_share: number;
  warmup_p50_ms: number;
  p50_ms: number;
  p95_ms: number;
  per_item_p50_ms: number;
  per_item_p95_ms: number;
  items_per_s: number;
}

/** `warmup + runs` calls of `batch` items: about a tenth misses, the rest stored items not sent before. */
async function runRoute(post: (path: string, body: unknown) => Promise<any>, route: Route): Promise<RouteFigures> {
  let next = 0;
  let miss = 0;
  const warm: number[] = [];
  const times: number[] = [];
  let ok = 0;
  for (let i = 0; i < warmup + runs; i++) {
    const items: unknown[] = [];
    while (items.length < batch) {
      if (rand() < 0.1 || next >= route.stored.length) items.push(route.miss(++miss));
      else items.push(route.stored[next++]);
    }
    const t = await timed(() => post(route.path, route.body(items)));
    const results = route.results(t.value);
    if (!Array.isArray(results) || results.length !== batch)
      throw new Error(`${route.path} failed: ${JSON.stringify(t.value).slice(0, 300)}`);
    if (i < warmup) {
      warm.push(t.ms);
      continue;
    }
    times.push(t.ms);
    ok += results.filter((r) => r.success ?? r.matched).length;
  }
  const total = times.reduce((a, b) => a + b, 0);
  return {
    calls: runs,
    items_per_call: batch,
    identifiers_sent: next + miss,
    success_share: round(ok / (runs * batch), 2),
    warmup_p50_ms: round(percentile(warm, 50)),
    p50_ms: round(percentile(times, 50)),
    p95_ms: round(percentile(times, 95)),
    per_item_p50_ms: round(percentile(times, 50) / batch, 2),
    per_item_p95_ms: round(percentile(times, 95) / batch, 2),
    items_per_s: Math.round((runs * batch) / (total / 1000)),
  };
}

// A store left aside by a killed run goes back first.
if (existsSync(aside) && !existsSync(pointStore)) renameSync(aside, pointStore);
const calls = warmup + runs;
// Family B: a third of the sample per route, enough that the route's stored items (at least 70 % of its contacts
// have what it asks by) never run out.
const rows = await sampleContacts(Math.ceil(familyB ? calls * batch * 3 * 1.5 : calls * 100 * 0.9));
const routes = familyB ? familyBRoutes(rows) : [familyARoute(rows)];
if (noPointStore) renameSync(pointStore, aside);
const server = await startBenchServer(dir);
const restore = () => {
  if (noPointStore && existsSync(aside)) renameSync(aside, pointStore);
};
process.once('SIGINT', () => {
  restore();
  process.exit(130);
});
const post = poster(server.url, key);
// Which path answers the lookups: the release's point store, or its columns (a release without one).
const health = (await (await fetch(`${server.url}/v1/health`)).json()) as {
  data: { engine: { point_reads?: boolean } };
};

const figures: Record<string, RouteFigures> = {};
try {
  for (const route of routes) {
    figures[route.name] = await runRoute(post, route);
    process.stderr.write(`${route.name}: ${JSON.stringify(figures[route.name])}\n`);
  }
} finally {
  const peak = server.peakRssMb();
  await server.stop();
  restore();
  const common = {
    contacts,
    ...(tag ? { tag } : {}),
    point_reads: health.data.engine.point_reads ?? null,
    cards_hold_names: cardsHoldNames,
  };
  const tail = { server_peak_rss_mb: round(peak), machine: machine(), at: new Date().toISOString() };
  const a = familyB ? undefined : figures[routes[0]!.name];
  const summary = familyB
    ? { ...common, runs, warmup_calls: warmup, routes: figures, ...tail }
    : {
        ...common,
        ...(allColumns ? { columns: ['*'] } : {}),
        runs,
        inputs_per_call: 100,
        identifiers_sent: a?.identifiers_sent,
        matched_share: a?.success_share,
        warmup_calls: warmup,
        warmup_p50_ms: a?.warmup_p50_ms,
        p50_ms: a?.p50_ms,
        p95_ms: a?.p95_ms,
        ...tail,
      };
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(
    join(root, 'bench', 'results', `enrich-${familyB ? 'family-b-' : ''}${contacts}${tag ? `-${tag}` : ''}.json`),
    `${JSON.stringify(summary, null, 2)}\n`,
  );
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
}
