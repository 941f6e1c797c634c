import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { opensearchClient } from '../../src/engine/opensearch/client.js';
import type { ClusterClient } from '../../src/engine/search-cluster/transport.js';
import { cds } from '../helpers/child-server.js';

/**
 * The data team's commands on OpenSearch, as they run them: `cds seed` and `cds load --delta` with
 * CDS_ENGINE=opensearch (progress on stderr, the rate recorded with the release), an opt-out added with `cds optout`
 * and left out of the next release, `cds releases list|rollback|prune` on the cluster's releases, and `--engine`
 * overriding CDS_ENGINE for one command. On the run's node (OPENSEARCH_URL), under an index prefix of the test's own.
 */
const URL_ = process.env.OPENSEARCH_URL ?? '';
const maybe = URL_ ? describe : describe.skip;
if (!URL_) process.stderr.write('opensearch load CLI: SKIPPED (no OPENSEARCH_URL)\n');

interface Run {
  code: number | null;
  out: string;
  err: string;
}

maybe('cds seed, load --delta, optout and releases on OpenSearch', () => {
  const prefix = `cds-cli-${randomBytes(4).toString('hex')}-`;
  let dir: string;
  let client: ClusterClient;
  const env = () => ({ CDS_ENGINE: 'opensearch', OPENSEARCH_URL: URL_, CDS_ES_PREFIX: prefix, CDS_ES_REPLICAS: '0' });
  const run = (args: string[], extra: Record<string, string> = {}): Promise<Run> =>
    new Promise((resolve) => {
      const child = cds([...args, '--data', dir], { ...env(), ...extra });
      let out = '';
      let err = '';
      child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
      child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
      child.on('exit', (code) => resolve({ code, out, err }));
    });
  const lines = (r: Run) =>
    r.out
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, any>);
  /** Contacts the serving release (the alias) holds matching a query. */
  const count = async (query: Record<string, unknown> = { match_all: {} }) =>
    (await client.search({ index: `${prefix}contacts`, query, size: 0, track_total_hits: true })).hits.total as {
      value: number;
    };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cds-os-cli-'));
    client = opensearchClient({ url: URL_ });
  });
  afterAll(async () => {
    const names = await client.indexNames(`${prefix}*`).catch(() => []);
    if (names.length) await client.deleteIndices(names);
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('seeds, loads a delta without an opted-out person, lists, rolls back and prunes', async () => {
    const seeded = await run(['seed', '--contacts', '1200', '--companies', '150', '--seed', '4']);
    expect(seeded.code).toBe(0);
    expect(seeded.err).toMatch(/index contacts/);
    const first = lines(await run(['releases', 'list']));
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ serving: true, contacts: 1200 });
    expect(first[0]!.source.cluster).toMatchObject({ product: 'OpenSearch' });
    expect(first[0]!.source.cluster.rows_per_second).toBeGreaterThan(0);
    expect((await count()).value).toBe(1200);

    // An opted-out person, and a delta restating one other person with a new title.
    const hit = (
      await client.search<{ work_email: string; id: string }>({
        index: `${prefix}contacts`,
        query: { exists: { field: 'work_email' } },
        size: 2,
        sort: [{ sort_key: 'asc' }],
      })
    ).hits.hits.map((h) => h._source!);
    const optedOut = hit[0]!;
    expect((await run(['optout', 'add', '--email', optedOut.work_email])).code).toBe(0);
    const dumps = join(dir, 'dumps', '4-1200');
    const peopleFile = readdirSync(dumps).find((n) => n.startsWith('people'))!;
    const person = readFileSync(join(dumps, peopleFile), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { roles?: { title: string; is_primary?: boolean }[] })
      .find((p) => p.roles?.some((r) => r.is_primary))!;
    const roles = person.roles!.map((r) => (r.is_primary ? { ...r, title: 'Chief Delta Officer' } : r));
    const changed = join(dir, 'changed.jsonl');
    writeFileSync(changed, `${JSON.stringify({ ...person, roles, updated_at: '2026-11-20' })}\n`);
    const delta = await run(['load', '--delta', '--people', changed]);
    expect(delta.code).toBe(0);
    expect(delta.err).toMatch(/index contacts/);

    const second = lines(await run(['releases', 'list']));
    expect(second.map((r) => r.serving)).toEqual([false, true]);
    expect((await count()).value).toBe(1199);
    expect((await count({ term: { work_email: optedOut.work_email } })).value).toBe(0);
    expect((await count({ term: { title: 'Chief Delta Officer' } })).value).toBe(1);

    const back = lines(await run(['releases', 'rollback']));
    expect(back[0]).toMatchObject({ serving: first[0]!.id });
    expect((await count()).value).toBe(1200);
    const pruned = lines(await run(['releases', 'prune', '--keep', '1']));
    expect(pruned[0]!.removed).toEqual([]); // the newer one is kept: the serving one is never removed, the newest stays
  }, 300_000);

  it('--engine duckdb writes an embedded release whatever CDS_ENGINE says', async () => {
    const r = await run(['seed', '--contacts', '300', '--companies', '40', '--engine', 'duckdb']);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'releases', 'CURRENT'), 'utf8')).id).toMatch(/^r\d{8}T/);
    const bad = await run(['seed', '--contacts', '300', '--companies', '40', '--engine', 'solr']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--engine takes duckdb, opensearch, elasticsearch/);
  }, 120_000);
});
