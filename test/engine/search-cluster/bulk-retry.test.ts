import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@elastic/elasticsearch';
import { elasticsearchTransport } from '../../../src/engine/elasticsearch/client.js';
import { BULK_RETRIES, ReleaseIndexer } from '../../../src/engine/search-cluster/release-writer/indexer.js';

/**
 * Per-document 429s in a bulk answer (the cluster's write queue is full) are sent again after a pause, and only rows
 * still refused after BULK_RETRIES tries, or refused for another reason, count as refused. The cluster here is a small
 * HTTP server answering `_bulk` as Elasticsearch does (the live path is the conformance suite with ELASTICSEARCH_URL).
 */

type Answer = (ids: string[], call: number) => Array<{ status: number; type?: string; reason?: string }>;

let server: Server;
let url: string;
let answer: Answer;
/** The document ids of each bulk request, in order. */
let calls: string[][] = [];

const body = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let s = '';
    req.on('data', (c: Buffer) => (s += c.toString()));
    req.on('end', () => resolve(s));
  });

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const text = await body(req);
    res.setHeader('x-elastic-product', 'Elasticsearch');
    res.setHeader('content-type', 'application/json');
    if (!req.url?.startsWith('/_bulk')) {
      res.statusCode = 404;
      return res.end('{}');
    }
    const lines = text.split('\n').filter((l) => l.trim());
    const ids = lines.filter((_, i) => i % 2 === 0).map((l) => String(JSON.parse(l).index._id));
    calls.push(ids);
    const statuses = answer(ids, calls.length);
    const items = ids.map((id, i) => {
      const s = statuses[i]!;
      return {
        index: {
          _index: 'contacts-test',
          _id: id,
          status: s.status,
          ...(s.status >= 300 ? { error: { type: s.type ?? 'error', reason: s.reason ?? 'refused' } } : {}),
        },
      };
    });
    res.end(JSON.stringify({ took: 1, errors: statuses.some((s) => s.status >= 300), items }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const rows = Array.from({ length: 6 }, (_, i) => ({ id: `per_${i}`, name: `Person ${i}` }));
const rejected = { status: 429, type: 'es_rejected_execution_exception', reason: 'rejected execution' };

async function indexRows(): Promise<ReleaseIndexer> {
  calls = [];
  const client = elasticsearchTransport(new Client({ node: url }));
  const indexer = new ReleaseIndexer({ client, prefix: 'cds', shards: 1, replicas: 0, retryMs: 1 }, 'r1');
  try {
    await indexer.bulk('contact', rows);
  } finally {
    await client.close();
  }
  return indexer;
}

test('rows answered 429 are sent again, alone, until the cluster takes them', async () => {
  // First answer: every other row 429; second: the first of those again 429; third: all taken.
  answer = (ids, call) =>
    ids.map((id) => {
      if (call === 1 && Number(id.slice(4)) % 2 === 0) return rejected;
      if (call === 2 && id === 'per_0') return rejected;
      return { status: 201 };
    });
  const indexer = await indexRows();
  expect(calls).toEqual([rows.map((r) => r.id), ['per_0', 'per_2', 'per_4'], ['per_0']]);
  expect(indexer.refused).toEqual([]);
  expect(indexer.stats().contacts).toBe(6);
});

test('rows still answered 429 after every retry, and rows refused otherwise, count as refused', async () => {
  answer = (ids) =>
    ids.map((id) => {
      if (id === 'per_1') return rejected;
      if (id === 'per_3') return { status: 400, type: 'mapper_parsing_exception', reason: 'failed to parse [name]' };
      return { status: 201 };
    });
  const indexer = await indexRows();
  // The first request, then BULK_RETRIES more for per_1 alone; per_3 is never sent again.
  expect(calls).toEqual([rows.map((r) => r.id), ...Array.from({ length: BULK_RETRIES }, () => ['per_1'])]);
  expect(indexer.refused).toEqual([
    { entity: 'contact', id: 'per_3', reason: 'failed to parse [name]' },
    { entity: 'contact', id: 'per_1', reason: 'rejected execution' },
  ]);
});
