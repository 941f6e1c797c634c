/**
 * Suppression benchmark (issue 17): what a suppression list of opt-outs costs the count suite, and how long a list
 * takes to apply.
 *
 *   node dist/bench/suppression-bench.js --contacts 1000000 [--data DIR] [--suppressed 100000] [--runs 15] [--tag T]
 *
 * The suite of bench/lib/query-suite.ts is counted (and its first pages read) in this process on two DuckDB engines
 * over the same release, one without a list and one with `--suppressed` people suppressed, interleaved query by
 * query so both see the same machine. Measured at the engine, not over HTTP: the ratio is then the engine's own cost
 * (over HTTP the fixed cost of a request would dilute it). The people are real contacts of the release, every
 * tenth in the stable order, each by one identifier: id, work email, phone, profile slug or the SHA-256 of an email
 * or phone, in turn.
 *
 * Reports, per query, the median count time without and with the list and their ratio, the median of the ratios
 * (target at most 1.10), and the time to apply the list: cold (the release's emails and phones hashed for the
 * sha256 entries, once per release), a new list of as many other people once they are hashed, the same list again,
 * and the list with 100 more entries (a typical change). Writes bench/results/suppression-<N>[-tag].json.
 */
process.env.UV_THREADPOOL_SIZE ??= '24';

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { CONTACT_CARD_COLUMNS } from '../src/domain/catalog/index.js';
import { sha256Of } from '../src/domain/optouts.js';
import { type IRNode, parseContactFilter } from '../src/domain/query/index.js';
import { EMPTY_SUPPRESSION, type Suppression } from '../src/domain/suppression.js';
import { type DuckDBEngine, openDuckDBEngine } from '../src/engine/duckdb/duckdb-engine.js';
import { benchDataDir } from './lib/bench-data.js';
import { machine } from './lib/machine.js';
import { querySuite } from './lib/query-suite.js';
import { servingRelease } from './lib/release.js';
import { percentile, round, timed } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    contacts: { type: 'string', default: '1000000' },
    data: { type: 'string' },
    suppressed: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '15' },
    tag: { type: 'string' },
  },
});
const root = process.cwd();
const contacts = Number(values.contacts);
const wanted = Number(values.suppressed);
const runs = Number(values.runs);
const dir = benchDataDir(root, contacts, values.data);

/** `count` people of the release, spread over it (every n-th), `offset` picks another set of the same size. */
async function peopleList(
  count: number,
  offset: number,
): Promise<{ list: Suppression; byType: Record<string, number> }> {
  const db = await DuckDBInstance.create(servingRelease(dir).file, { access_mode: 'READ_ONLY' });
  const conn = await db.connect();
  const step = Math.max(1, Math.floor(contacts / count));
  const rows = (
    await conn.runAndReadAll(
      'SELECT id, work_email, mobile_phone, direct_phone, network_slug FROM contacts WHERE sort_key % $1 = $2 ' +
        'ORDER BY sort_key LIMIT $3',
      [step, offset % step, count],
    )
  ).getRowObjects() as Array<Record<string, string | null>>;
  conn.closeSync();
  db.closeSync();
  const list = { ids: [] as string[], emails: [] as string[], phones: [] as string[], slugs: [] as string[] };
  const sha256: string[] = [];
  const byType: Record<string, number> = { id: 0, email: 0, phone: 0, url: 0, sha256: 0 };
  rows.forEach((r, i) => {
    const phone = r.mobile_phone ?? r.direct_phone;
    // Mixed: 30 % ids, 25 % emails, 20 % phones, 10 % slugs, 15 % hashes (of an email, or of a phone).
    const pick = i % 20;
    if (pick < 5 && r.work_email) {
      list.emails.push(r.work_email);
      byType.email!++;
    } else if (pick < 9 && phone) {
      list.phones.push(phone);
      byType.phone!++;
    } else if (pick < 11 && r.network_slug) {
      list.slugs.push(r.network_slug);
      byType.url!++;
    } else if (pick < 14 && (r.work_email ?? phone)) {
      sha256.push(sha256Of((pick % 2 === 0 ? (r.work_email ?? phone) : (phone ?? r.work_email))!));
      byType.sha256!++;
    } else {
      list.ids.push(r.id!);
      byType.id!++;
    }
  });
  return { list: { ...list, sha256 }, byType };
}

const open = (): Promise<DuckDBEngine> => openDuckDBEngine({ dataDir: dir });

const suite = (await querySuite(dir)).map((q) => ({ name: q.name, ir: parseContactFilter({ filter: q.filter }).ir }));
const { list, byType } = await peopleList(wanted, 3);
const other = await peopleList(wanted, 7);
const plain = await open();
const suppressed = await open();

const applyMs: Record<string, number | null> = {};
const apply = async (label: string, s: Suppression): Promise<number> => {
  const t = await timed(() => suppressed.setSuppression(s));
  applyMs[label] = round(t.ms);
  process.stdout.write(
    `apply ${label.padEnd(34)} ${String(round(t.ms)).padStart(8)} ms  (${t.value.contacts} contacts)\n`,
  );
  return t.value.contacts;
};

// Warm both engines' caches (index postings, file pages) before anything is timed.
for (const q of suite) {
  await plain.query('contact', q.ir, { countBudgetMs: 60_000 });
  await suppressed.query('contact', q.ir, { countBudgetMs: 60_000 });
}

// Cold: the first list with sha256 entries hashes the release's emails and phones.
await apply('cold (hashes the release)', list);
const cold = suppressed.suppressionStats();
applyMs.cold_hash_index = cold?.hashIndexMs ?? null;
await apply('another list of as many (hashed)', other.list);
await apply('back to the first list', list);
await apply('the same list again', list);
const more: Suppression = { ...list, ids: [...list.ids, ...Array.from({ length: 100 }, (_, i) => `per_bench${i}`)] };
await apply('the list with 100 more entries', more);
const suppressedContacts = await apply('the list again (measured below)', list);

const results: Array<Record<string, unknown>> = [];
const pooled = {
  plain: [] as number[],
  suppressed: [] as number[],
  plainPage: [] as number[],
  supPage: [] as number[],
};
const ratios: number[] = [];
for (const q of suite) {
  const a: number[] = [];
  const b: number[] = [];
  const pa: number[] = [];
  const pb: number[] = [];
  let counts: [number | null, number | null] = [null, null];
  const page = { columns: ['id', 'name', 'title', 'company'], afterSortKey: null, limit: 100, budgetMs: 60_000 };
  for (let i = 0; i < runs; i++) {
    // Alternate which engine goes first, so neither always finds the other's work in the CPU caches.
    const order = i % 2 === 0 ? [plain, suppressed] : [suppressed, plain];
    for (const engine of order) {
      const t = await timed(() => engine.query('contact', q.ir, { countBudgetMs: 60_000 }));
      const p = await timed(() => engine.query('contact', q.ir, { page }));
      if (engine === plain) {
        a.push(t.ms);
        pa.push(p.ms);
        counts[0] = t.value.count;
      } else {
        b.push(t.ms);
        pb.push(p.ms);
        counts[1] = t.value.count;
      }
    }
  }
  const row = {
    query: q.name,
    matches: counts[0],
    matches_suppressed: counts[1],
    count_p50: round(percentile(a, 50), 2),
    count_p50_suppressed: round(percentile(b, 50), 2),
    ratio: round(percentile(b, 50) / percentile(a, 50), 3),
    first_page_p50: round(percentile(pa, 50), 2),
    first_page_p50_suppressed: round(percentile(pb, 50), 2),
  };
  counts = [null, null];
  ratios.push(row.ratio);
  results.push(row);
  pooled.plain.push(...a);
  pooled.suppressed.push(...b);
  pooled.plainPage.push(...pa);
  pooled.supPage.push(...pb);
  process.stdout.write(
    `${q.name.padEnd(34)} matches ${String(row.matches).padStart(8)} -> ${String(row.matches_suppressed).padStart(8)}  ` +
      `count p50 ${String(row.count_p50).padStart(7)} -> ${String(row.count_p50_suppressed).padStart(7)} ms  ` +
      `x${row.ratio.toFixed(3)}  first page ${String(row.first_page_p50).padStart(6)} -> ` +
      `${String(row.first_page_p50_suppressed).padStart(6)} ms\n`,
  );
}
// Outside the suite, for the record: reads the index does not answer (the scan leaves suppressed rows out with a
// bound BIT set of them) and a point read of 100 emails (enrichment: the point store's cards, filtered).
const emails = list.emails.slice(0, 50).concat(other.list.emails.slice(0, 50));
const extra: Array<{ name: string; ir: IRNode; page?: boolean }> = [
  { name: 'scan: name contains "an"', ir: { field: 'name', op: 'contains', value: 'an' } },
  { name: 'scan: headline contains "growth"', ir: { field: 'headline', op: 'contains', value: 'growth' } },
  { name: 'point read: 100 work emails', ir: { field: 'work_email', op: 'in', value: emails }, page: true },
];
const extras: Array<Record<string, unknown>> = [];
for (const q of extra) {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < Math.max(3, Math.ceil(runs / 3)); i++) {
    for (const engine of i % 2 === 0 ? [plain, suppressed] : [suppressed, plain]) {
      const t = await timed(() =>
        engine.query(
          'contact',
          q.ir,
          q.page
            ? { page: { columns: [...CONTACT_CARD_COLUMNS], afterSortKey: null, limit: 100, budgetMs: 60_000 } }
            : { countBudgetMs: 60_000 },
        ),
      );
      (engine === plain ? a : b).push(t.ms);
    }
  }
  const row = {
    query: q.name,
    p50: round(percentile(a, 50), 2),
    p50_suppressed: round(percentile(b, 50), 2),
    ratio: round(percentile(b, 50) / percentile(a, 50), 3),
  };
  extras.push(row);
  process.stdout.write(
    `${q.name.padEnd(34)} p50 ${String(row.p50).padStart(8)} -> ${String(row.p50_suppressed).padStart(8)} ms  ` +
      `x${row.ratio.toFixed(3)}\n`,
  );
}

await suppressed.setSuppression(EMPTY_SUPPRESSION);
await plain.close();
await suppressed.close();

const summary = {
  contacts,
  suppressed_entries: wanted,
  suppressed_contacts: suppressedContacts,
  entries_by_type: byType,
  runs,
  tag: values.tag ?? null,
  machine: machine(),
  at: new Date().toISOString(),
  apply_ms: applyMs,
  count_ratio_median: round(percentile(ratios, 50), 3),
  count_ratio_max: round(Math.max(...ratios), 3),
  suite_count_p50_ms: round(percentile(pooled.plain, 50), 2),
  suite_count_p50_suppressed_ms: round(percentile(pooled.suppressed, 50), 2),
  suite_count_ratio_of_p50: round(percentile(pooled.suppressed, 50) / percentile(pooled.plain, 50), 3),
  suite_first_page_p50_ms: round(percentile(pooled.plainPage, 50), 2),
  suite_first_page_p50_suppressed_ms: round(percentile(pooled.supPage, 50), 2),
  queries: results,
  outside_suite: extras,
};
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(
  join(root, 'bench', 'results', `suppression-${contacts}${values.tag ? `-${values.tag}` : ''}.json`),
  `${JSON.stringify(summary, null, 2)}\n`,
);
process.stdout.write(
  `\ncount cost with ${suppressedContacts} people suppressed: median ratio x${summary.count_ratio_median} ` +
    `(max x${summary.count_ratio_max}; suite p50 ${summary.suite_count_p50_ms} -> ` +
    `${summary.suite_count_p50_suppressed_ms} ms, x${summary.suite_count_ratio_of_p50}); target x1.10\n`,
);
