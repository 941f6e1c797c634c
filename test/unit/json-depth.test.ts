import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../src/http/middleware/json-body.js';

/** The depth of a JSON text by parsing it (the definition the one-pass count must agree with). */
function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (value !== null && typeof value === 'object') return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  return 0;
}

const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('nestedDeeperThan', () => {
  it.each([
    ['64 arrays', nested(64), false],
    ['65 arrays', nested(65), true],
    ['64 levels of objects and arrays', `${'{"a":['.repeat(32)}${']}'.repeat(32)}`, false],
    ['65 levels of objects and arrays', `{"b":${'{"a":['.repeat(32)}${']}'.repeat(32)}}`, true],
    ['1,000 sibling arrays (many brackets, shallow)', `[${Array(1000).fill('[1]').join(',')}]`, false],
    ['brackets inside strings', JSON.stringify({ s: '['.repeat(500) + '{'.repeat(500) }), false],
    ['escaped quotes before brackets', JSON.stringify({ s: `\\"${'['.repeat(100)}`, t: [[1]] }), false],
    ['deep after a string full of brackets', `{"s":"${'['.repeat(100)}","x":${nested(65)}}`, true],
    [
      'a list of 500 names',
      JSON.stringify({ filter: { company_names: Array.from({ length: 500 }, (_, i) => `N[${i}]`) } }),
      false,
    ],
  ])('%s', (_name, text, deeper) => {
    expect(nestedDeeperThan(text, MAX_JSON_DEPTH)).toBe(deeper);
    expect(depthOf(JSON.parse(text)) > MAX_JSON_DEPTH).toBe(deeper);
  });
});
