import type { estypes } from '@elastic/elasticsearch';
import { countRequest, pageRequest } from '../../../src/engine/search-cluster/compile/select.js';

/** The page and count requests around a compiled query: keyset, offset, both, and the count's budget. */
const q: estypes.QueryDslQueryContainer = { term: { country: 'us' } };

describe('Elasticsearch page and count requests', () => {
  it('a keyset page sorts on sort_key and continues with search_after, no total', () => {
    expect(pageRequest('contacts-r1', q, ['id'], 41, 25, 0, 2000)).toEqual({
      index: 'contacts-r1',
      query: q,
      sort: [{ sort_key: { order: 'asc' } }],
      size: 25,
      search_after: [41],
      _source: { includes: ['id', 'sort_key'] },
      track_total_hits: false,
      timeout: '2000ms',
    } satisfies estypes.SearchRequest);
  });

  it('an offset page uses from; with a cursor too, the cursor becomes a range (search_after refuses from)', () => {
    expect(pageRequest('contacts-r1', q, ['id'], null, 25, 100, 2000)).toMatchObject({ from: 100, query: q });
    const both = pageRequest('contacts-r1', q, ['id'], 41, 25, 100, 2000);
    expect(both.search_after).toBeUndefined();
    expect(both).toMatchObject({ from: 100, query: { bool: { filter: [q, { range: { sort_key: { gt: 41 } } }] } } });
  });

  it('a count tracks every hit within its budget', () => {
    expect(countRequest('contacts-r1', q, 3000)).toEqual({
      index: 'contacts-r1',
      query: q,
      size: 0,
      track_total_hits: true,
      timeout: '3000ms',
    });
  });
});
