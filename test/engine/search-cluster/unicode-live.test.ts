import { randomBytes } from 'node:crypto';
import type { IRNode } from '../../../src/domain/query/ir.js';
import { opensearchClient } from '../../../src/engine/opensearch/client.js';
import { compileWhere } from '../../../src/engine/search-cluster/compile/compile-where.js';
import { indexMappings, indexSettings } from '../../../src/engine/search-cluster/mappings.js';
import type { ClusterClient } from '../../../src/engine/search-cluster/transport.js';
import { matches } from '../conformance/ir-eval.js';

/**
 * Lucene's case folding, on a live OpenSearch node: titles and names in Greek, Turkish, German and other scripts
 * indexed with the release mappings (the `cds_lowercase` normalizer on `.lower`, the `cds_words` analyzer on `.words`),
 * then `contains`, `prefix`, `eq` and whole-word leaves compiled as the engine compiles them. Each must match exactly
 * the rows the IR's documented semantics match (lowercasing code point by code point, as DuckDB's lower() does), so
 * the two engines agree on text beyond ASCII: a word-final `Σ` is `σ`, `İ` is `i`, `ß` stays `ß`.
 */
const URL_ = process.env.OPENSEARCH_URL ?? '';
const maybe = URL_ ? describe : describe.skip;
if (!URL_) process.stderr.write('unicode on OpenSearch: SKIPPED (no OPENSEARCH_URL)\n');

const ROWS = [
  { id: 'per_1', name: 'İLKER YILMAZ', title: 'İSTANBUL BÖLGE MÜDÜRÜ' },
  { id: 'per_2', name: 'ilker yılmaz', title: 'istanbul bölge müdürü' },
  { id: 'per_3', name: 'ΝΙΚΟΣ ΠΑΠΑΔΟΠΟΥΛΟΣ', title: 'ΔΙΕΥΘΥΝΤΗΣ ΠΩΛΗΣΕΩΝ' },
  { id: 'per_4', name: 'Νίκος Παπαδόπουλος', title: 'Διευθυντής Πωλήσεων' },
  { id: 'per_5', name: 'JÜRGEN STRAẞE', title: 'Leiter Vertrieb, Straße' },
  { id: 'per_6', name: 'Jürgen Strasse', title: 'LEITER-VERTRIEB' },
  { id: 'per_7', name: 'ǅORĐE ǈUBIĆ', title: 'Head of Sales' },
  { id: 'per_8', name: 'Ångström Ælfred', title: 'HEAD OF SALES (EMEA)' },
];

const CASES: IRNode[] = [
  { field: 'name', op: 'contains', value: 'İLKER' },
  { field: 'name', op: 'contains', value: 'ılmaz' },
  { field: 'name', op: 'contains', value: 'ΠΟΥΛΟΣ' },
  { field: 'name', op: 'contains', value: 'πουλοσ' },
  { field: 'name', op: 'contains', value: 'STRASSE' },
  { field: 'name', op: 'contains', value: 'straße' },
  { field: 'name', op: 'contains', value: 'ǆorđe' },
  { field: 'name', op: 'prefix', value: 'ÅNGSTRÖM' },
  { field: 'name', op: 'prefix', value: 'νίκος' },
  { field: 'name', op: 'eq', value: 'ilker yılmaz' },
  { field: 'title', op: 'words', value: 'istanbul bölge' },
  { field: 'title', op: 'words', value: 'ΔΙΕΥΘΥΝΤΗΣ' },
  { field: 'title', op: 'words', value: 'διευθυντής πωλήσεων' },
  { field: 'title', op: 'words', value: 'leiter vertrieb' },
  { field: 'title', op: 'words', value: 'head of sales' },
  { field: 'title', op: 'contains', value: 'MÜDÜR' },
];

maybe('case folding on a live OpenSearch node agrees with the IR', () => {
  let client: ClusterClient;
  const index = `cds-unicode-${randomBytes(4).toString('hex')}`;
  beforeAll(async () => {
    client = opensearchClient({ url: URL_ });
    await client.createIndex(index, indexSettings(1, 0), indexMappings('contact'));
    await client.bulk(ROWS.flatMap((r) => [{ index: { _index: index, _id: r.id } }, r]));
    await client.refresh(index);
  });
  afterAll(async () => {
    await client.deleteIndices([index]);
    await client.close();
  });

  it.each(CASES.map((c) => [JSON.stringify(c), c] as const))('%s', async (_name, ir) => {
    const r = await client.search<{ id: string }>({ index, query: compileWhere('contact', ir), size: 100 });
    const got = r.hits.hits.map((h) => h._source!.id).sort();
    const want = ROWS.filter((row) => matches('contact', ir, row)).map((row) => row.id);
    expect(got).toEqual(want);
    // Every case matches something: a case matching nothing on both sides would prove nothing.
    expect(want.length).toBeGreaterThan(0);
  });
});
