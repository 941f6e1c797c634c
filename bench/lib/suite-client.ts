import type { SuiteQuery } from './query-suite.js';

type Post = (path: string, body: unknown) => Promise<any>;

/**
 * A suite query sent to the service over HTTP: family A (`/v1/contacts/...`) or family B (`/api/v1/contacts/...`)
 * as the query says. Pages are read in the stable order; `deepPage` returns a function that fetches the page
 * `depth` rows deep (a family A cursor reached by walking, or a family B offset), or null when fewer rows match.
 */
export function suiteClient(post: Post) {
  const idsOf = (rows: Array<{ id: string }>): string[] => rows.map((r) => r.id);
  return {
    async count(q: SuiteQuery): Promise<number | null> {
      if (q.familyB) return (await post('/api/v1/contacts/search/count', q.familyB)).count;
      return (await post('/v1/contacts/count', { filter: q.filter })).data.count;
    },
    async firstPage(q: SuiteQuery, limit = 100): Promise<string[]> {
      if (q.familyB) return idsOf((await post('/api/v1/contacts/search', { ...q.familyB, limit })).contacts);
      return idsOf((await post('/v1/contacts/search', { filter: q.filter, limit })).data);
    },
    async deepPage(q: SuiteQuery, depth: number): Promise<(() => Promise<unknown>) | null> {
      if (q.familyB) {
        const body = { ...q.familyB, limit: 100, offset: depth };
        const probe = await post('/api/v1/contacts/search', body);
        return probe.contacts.length > 0 ? () => post('/api/v1/contacts/search', body) : null;
      }
      let walked = 0;
      let cursor: string | null = null;
      // The cursor pins filter and columns, not limit: walk with large pages, then time pages of 100.
      while (walked < depth) {
        const page: any = await post('/v1/contacts/search', {
          filter: q.filter,
          limit: 1000,
          cursor,
          columns: ['name'],
        });
        walked += page.page.returned;
        cursor = page.page.next_cursor;
        if (!cursor) return null;
      }
      const body = { filter: q.filter, limit: 100, cursor, columns: ['name'] };
      return () => post('/v1/contacts/search', body);
    },
  };
}
