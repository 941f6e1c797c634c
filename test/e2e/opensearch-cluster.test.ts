import { parseCsv } from '../helpers/csv.js';
import { type OpenSearchCluster, openSearchAvailable, startOpenSearch } from '../helpers/opensearch-node.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * A node lost under load, on a real 3-node OpenSearch cluster (tools/opensearch/, one JVM a node): a release indexed
 * with 3 shards and 1 replica, the service given the three nodes' URLs; then one node is SIGKILLed while counts,
 * cursor walks and an export run. Every answer must be either correct (the count, the page of the release as read
 * before the kill) or 503 data.unavailable — never a partial count, a short page or a truncated export; once the
 * cluster has settled on two nodes (yellow), the same service answers correctly again without a restart; the export
 * either completes with every row, charged once, or fails with its credits released.
 */
// CI requires it (CDS_REQUIRE_OPENSEARCH=1): there a missing Java fails this test instead of skipping it.
const AVAILABLE = openSearchAvailable() || process.env.CDS_REQUIRE_OPENSEARCH === '1';
if (!AVAILABLE) process.stderr.write('opensearch 3-node cluster test: SKIPPED (java and mvn are not on PATH)\n');
const maybe = AVAILABLE ? describe : describe.skip;

const NOW = '2026-11-10T12:00:00.000Z';
const FILTERS: Record<string, unknown>[] = [{}, { countries: ['United States'] }, { seniority: ['VP', 'Director'] }];
const WALK = { countries: ['United States'] };
const PAGE = 500;

let cluster: OpenSearchCluster;
let app: TestApp;
/** One account a loop (the spec allows 2 concurrent requests a key), so the export's credits are its own. */
const keys = { count: '', walk: '', export: '' };
/** A plan no loop of this test runs out of. */
const BULK = {
  name: 'Bulk',
  contact: { kind: 'windows', daily: 10_000_000, monthly: 10_000_000 },
  premiumMonthly: 0,
  alerts: false,
  maxActiveAlerts: 0,
};
/** What the release answers with every node up. */
const expected = { counts: [] as number[], walk: [] as string[], all: 0 };

const search = (filter: unknown, cursor: string | null) =>
  app.request('POST', '/v1/contacts/search', {
    key: keys.walk,
    body: { filter, limit: PAGE, cursor, columns: ['id', 'name'] },
  });

/** A 503 as the spec writes it: data.unavailable. */
function isUnavailable(r: { status: number; body: any }): boolean {
  return r.status === 503 && r.body?.error?.code === 'data.unavailable';
}

/** Walks every page of WALK; answers the ids, or 'unavailable' at the first 503 (each page checked on its way). */
async function walk(): Promise<string[] | 'unavailable'> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const r = await search(WALK, cursor);
    if (isUnavailable(r)) return 'unavailable';
    expect(r.status).toBe(200);
    const page = (r.body.data as { id: string }[]).map((x) => x.id);
    // Never a short page: each page is exactly the release's rows at that place.
    expect(page).toEqual(expected.walk.slice(ids.length, ids.length + PAGE));
    ids.push(...page);
    cursor = r.body.page.next_cursor;
  } while (cursor !== null);
  return ids;
}

async function health(query: string): Promise<{ status: string; number_of_nodes: number }> {
  const res = await fetch(`${cluster.nodeUrl(1)}/_cluster/health?${query}`);
  return (await res.json()) as { status: string; number_of_nodes: number };
}

maybe('a 3-node OpenSearch cluster losing a node under load', () => {
  beforeAll(async () => {
    cluster = await startOpenSearch({ nodes: 3, own: true, heap: '512m' });
    const urls = [1, 2, 3].map((k) => cluster.nodeUrl(k)).join(',');
    app = await startTestApp({
      contacts: 12_000,
      companies: 1_200,
      seed: 31,
      now: NOW,
      opensearch: { url: urls, shards: 3, replicas: 1 },
      env: { CDS_EXPORT_BATCH_ROWS: '400', CDS_EXPORT_BATCH_DELAY_MS: '60', CDS_RATE_PER_MINUTE: '1000000' },
      plans: { bulk: BULK },
    });
    for (const k of ['count', 'walk', 'export'] as const) keys[k] = (await app.createAccount('bulk')).apiKey;
    // Every replica assigned before the fault: a lost node then leaves a copy of every shard.
    expect((await health('wait_for_status=green&timeout=120s')).status).toBe('green');
    for (const filter of FILTERS) {
      const r = await app.request('POST', '/v1/contacts/count', { key: keys.count, body: { filter } });
      expect(r.status).toBe(200);
      expected.counts.push(r.body.data.count);
    }
    expected.all = expected.counts[0]!;
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const r = await search(WALK, cursor);
      expect(r.status).toBe(200);
      ids.push(...(r.body.data as { id: string }[]).map((x) => x.id));
      cursor = r.body.page.next_cursor;
    } while (cursor !== null);
    expected.walk = ids;
    expect(ids.length).toBe(expected.counts[1]);
    expect(new Set(ids).size).toBe(ids.length);
  }, 600_000);
  afterAll(async () => {
    await app?.close();
    await cluster?.stop();
  }, 120_000);

  it('answers correctly or 503 while a node dies, then correctly again on two nodes', async () => {
    const outcomes = { counts: 0, countsUnavailable: 0, walks: 0, walksUnavailable: 0 };
    let stop = false;
    const counting = (async () => {
      while (!stop) {
        for (const [i, filter] of FILTERS.entries()) {
          const r = await app.request('POST', '/v1/contacts/count', { key: keys.count, body: { filter } });
          if (isUnavailable(r)) outcomes.countsUnavailable++;
          else {
            expect({ status: r.status, count: r.body.data?.count }).toEqual({ status: 200, count: expected.counts[i] });
            outcomes.counts++;
          }
        }
      }
    })();
    const walking = (async () => {
      while (!stop) {
        const ids = await walk();
        if (ids === 'unavailable') outcomes.walksUnavailable++;
        else {
          expect(ids).toEqual(expected.walk);
          outcomes.walks++;
        }
      }
    })();
    const started = await app.request('POST', '/v1/exports', {
      key: keys.export,
      body: { filter: {}, columns: ['id', 'name', 'company_domain'], format: 'csv' },
    });
    expect(started.status).toBe(202);
    const exportId = started.body.data.id as string;

    await new Promise((r) => setTimeout(r, 1_000));
    await cluster.killNode(2);
    await new Promise((r) => setTimeout(r, 6_000));
    stop = true;
    await Promise.all([counting, walking]);

    // The export: completed with every row exactly once, charged for them; or failed, its hold released.
    let job: any;
    for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
      job = (await app.request('GET', `/v1/exports/${exportId}`, { key: keys.export })).body.data;
      if (job.status === 'completed' || job.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(['completed', 'failed']).toContain(job.status);
    const credits = (await app.request('GET', '/v1/credits', { key: keys.export })).body.data;
    if (job.status === 'completed') {
      const rows = parseCsv(await (await fetch(job.url)).text()).slice(1);
      expect(rows.length).toBe(expected.all);
      expect(new Set(rows.map((r) => r[0])).size).toBe(expected.all);
      expect(credits.contact.day).toMatchObject({ used: expected.all, held: 0 });
    } else {
      expect(credits.contact.day).toMatchObject({ used: 0, held: 0 });
    }
    const version = ((await (await fetch(cluster.nodeUrl(1))).json()) as { version: { number: string } }).version
      .number;
    const seen = { ...outcomes, export: job.status, export_rows: job.rows_exported ?? null };
    process.stdout.write(`3-node fault on OpenSearch ${version}: ${JSON.stringify(seen)}\n`);
    expect(outcomes.counts + outcomes.countsUnavailable).toBeGreaterThan(0);

    // Two nodes left, every shard still has a copy: yellow, and the same service answers correctly again.
    const h = await health('wait_for_nodes=2&wait_for_status=yellow&timeout=60s');
    expect(h.number_of_nodes).toBe(2);
    expect(['yellow', 'green']).toContain(h.status);
    let after: string[] | 'unavailable' = 'unavailable';
    for (const deadline = Date.now() + 60_000; after === 'unavailable' && Date.now() < deadline; ) {
      after = await walk();
      if (after === 'unavailable') await new Promise((r) => setTimeout(r, 500));
    }
    expect(after).toEqual(expected.walk);
    for (const [i, filter] of FILTERS.entries()) {
      const r = await app.request('POST', '/v1/contacts/count', { key: keys.count, body: { filter } });
      expect({ status: r.status, count: r.body.data?.count }).toEqual({ status: 200, count: expected.counts[i] });
    }
  }, 300_000);
});
