import { type Entity, type FilterGroup, filterKeysOf } from '../../src/domain/catalog/index.js';
import { describeSchema } from '../../src/operations/schema/describe.js';

/**
 * Every family A filter key carries its words in the catalog (the console's audience builder and the schema routes
 * read them from there, nowhere else): a key added without a label or a group fails here, before any browser test.
 */
const GROUPS: readonly FilterGroup[] = ['person', 'job', 'company', 'contact', 'signals', 'exclusions'];
const ENTITIES: readonly Entity[] = ['contact', 'company'];
const UPPER = { min: 'max', after: 'before' } as const;

describe.each(ENTITIES)('%s filter keys have words in the catalog', (entity) => {
  const keys = filterKeysOf(entity);
  const byKey = new Map(keys.map((k) => [k.key, k]));

  it('every key has a label in plain words and a known group', () => {
    expect(keys.length).toBeGreaterThan(10);
    for (const k of keys) {
      expect({ key: k.key, label: typeof k.label === 'string' && k.label.trim().length > 1 }).toEqual({
        key: k.key,
        label: true,
      });
      expect(k.label).not.toBe(k.key);
      expect(k.label).not.toMatch(/_/);
      expect(GROUPS).toContain(k.group);
      if (k.help !== undefined) expect(k.help.trim().length).toBeGreaterThan(3);
    }
  });

  it('labels are distinct within the entity', () => {
    const labels = keys.map((k) => k.label.toLowerCase());
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('a pair is the exclude twin of its include key, in the same group', () => {
    const paired = keys.filter((k) => k.pair !== undefined);
    expect(paired.length).toBeGreaterThan(0);
    for (const k of paired) {
      const twin = byKey.get(k.pair as string);
      expect({ key: k.key, twinExcludes: twin?.excludes, twinGroup: twin?.group }).toEqual({
        key: k.key,
        twinExcludes: k.key,
        twinGroup: k.group,
      });
    }
  });

  it('a range starts at a lower bound and ends at the upper bound of the same column', () => {
    for (const k of keys) {
      const upper = k.match === 'min' || k.match === 'after' ? UPPER[k.match] : undefined;
      const twin = keys.find((o) => o.column === k.column && o.match === upper);
      // Every lower bound with an upper twin names it; nothing else names a range end.
      expect({ key: k.key, rangeEnd: k.rangeEnd }).toEqual({ key: k.key, rangeEnd: twin?.key });
    }
  });

  it('the schema route serves the words beside the spec members', () => {
    const served = describeSchema(entity).filter_keys;
    expect(served.map((k) => k.key)).toEqual(keys.map((k) => k.key));
    for (const s of served) {
      const k = byKey.get(s.key);
      expect(s).toMatchObject({
        label: k?.label,
        group: k?.group,
        help: k?.help ?? null,
        pair: k?.pair ?? null,
        range_end: k?.rangeEnd ?? null,
      });
    }
  });
});
