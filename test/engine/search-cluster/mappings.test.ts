import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexMappingFiles } from '../../../src/cli/commands/docs.js';
import {
  columnsOf,
  type Entity,
  FAMILY_B_PARAMS,
  filterKeysOf,
  findColumn,
  type StorageType,
} from '../../../src/domain/catalog/index.js';
import { secondaryColumn } from '../../../src/domain/query/secondary-roles.js';
import { hasWordsField, type indexDefinition, MAX_RESULT_WINDOW } from '../../../src/engine/search-cluster/mappings.js';
import { B_PAGING_WINDOW } from '../../../src/operations/family-b/search.js';

/**
 * index-mappings/*.json against the catalog (the single source of columns): every catalog column has a mapped field
 * of its storage's type, nothing is mapped that the catalog (or the engine's one extra field) does not name, and the
 * checked-in files are what the code creates indices with.
 */
const FILE: Record<Entity, string> = { contact: 'contacts.json', company: 'companies.json' };
const read = (entity: Entity) =>
  JSON.parse(readFileSync(join(process.cwd(), 'index-mappings', FILE[entity]), 'utf8')) as ReturnType<
    typeof indexDefinition
  >;

const TYPE_OF: Record<StorageType, string> = {
  VARCHAR: 'keyword',
  'VARCHAR[]': 'keyword',
  JSON: 'keyword',
  BIGINT: 'long',
  DOUBLE: 'double',
  BOOLEAN: 'boolean',
};

describe.each(['contact', 'company'] as const)('index-mappings for %s', (entity) => {
  const def = read(entity);
  const props = def.mappings.properties as Record<string, { type: string; fields?: Record<string, { type: string }> }>;

  it('is what the code creates indices with (run `node bin/cds.js docs` after a catalog change)', () => {
    expect(readFileSync(join(process.cwd(), 'index-mappings', FILE[entity]), 'utf8')).toBe(
      indexMappingFiles()[FILE[entity]],
    );
  });

  it.each(columnsOf(entity).map((c) => [c.name, c] as const))('maps %s with its storage type', (_n, col) => {
    const p = props[col.name];
    expect(p).toBeDefined();
    expect([col.name, p!.type]).toEqual([col.name, TYPE_OF[col.storage]]);
    if (p!.type === 'keyword') {
      expect(p!.fields?.lower).toMatchObject({ type: 'keyword', normalizer: 'cds_lowercase' });
      if (hasWordsField(col)) expect(p!.fields?.words).toMatchObject({ type: 'text', analyzer: 'cds_words' });
      else expect(p!.fields?.words).toBeUndefined();
    }
    if (col.kind === 'date') expect(p!.fields?.date).toMatchObject({ type: 'date', format: 'strict_date' });
  });

  it('maps nothing the catalog does not name (but the suppression hashes of contacts)', () => {
    const extra = Object.keys(props).filter((k) => !columnsOf(entity).some((c) => c.name === k));
    expect(extra).toEqual(entity === 'contact' ? ['suppression_sha256'] : []);
  });

  it("is strict, sorted on sort_key, with family B's 50,000-row offset window (and its probe row), the words analyzer", () => {
    expect(def.mappings.dynamic).toBe('strict');
    expect(def.settings.sort).toEqual({ field: 'sort_key', order: 'asc' });
    expect(def.settings.max_result_window).toBe(MAX_RESULT_WINDOW);
    expect(MAX_RESULT_WINDOW).toBe(B_PAGING_WINDOW + 1);
    expect(def.settings.analysis?.analyzer?.cds_words).toMatchObject({ tokenizer: 'cds_words', filter: ['lowercase'] });
  });
});

it('every column the filter languages send whole-word phrases to has the words field', () => {
  const phraseColumns = [
    ...filterKeysOf('contact')
      .filter((k) => k.match === 'phrase')
      .map((k) => k.column!),
    ...FAMILY_B_PARAMS.filter((d) => d.match === 'title_words' || d.match === 'not_title_words').map((d) => d.column),
  ];
  const withSecondary = [...phraseColumns, ...phraseColumns.flatMap((c) => secondaryColumn(c) ?? [])];
  expect(withSecondary).toEqual(expect.arrayContaining(['title', 'secondary_titles']));
  for (const name of withSecondary)
    expect([name, hasWordsField(findColumn('contact', name, true)!)]).toEqual([name, true]);
});
