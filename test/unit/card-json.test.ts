import { answerJson, holdsJsonRows, JsonRows, plainRows } from '../../src/domain/json-rows.js';
import { arrayElements, decodeCards, renderCards } from '../../src/engine/duckdb/point-store/layout.js';

/** Seeded pseudo-random numbers in [0, 1) (mulberry32): the same cases on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Characters that are JSON structure, escapes or multi-unit text. */
const CHARS = ['a', 'Z', ' ', '"', '\\', '[', ']', '{', '}', ',', ':', '\n', '\t', '\u0001', 'é', 'Σ', '€', '😀', '/'];

function value(next: () => number, depth: number): unknown {
  const kind = Math.floor(next() * (depth > 2 ? 5 : 7));
  if (kind === 0) return null;
  if (kind === 1) return next() < 0.5;
  if (kind === 2) return Math.round((next() - 0.5) * 1e6) / (next() < 0.5 ? 1 : 1000);
  if (kind === 3 || kind === 4)
    return Array.from({ length: Math.floor(next() * 8) }, () => CHARS[Math.floor(next() * CHARS.length)]).join('');
  if (kind === 5) return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
  return Object.fromEntries(
    Array.from({ length: Math.floor(next() * 4) }, (_, i) => [
      `k${i}${CHARS[i % CHARS.length]}`,
      value(next, depth + 1),
    ]),
  );
}

const slices = (text: string) => {
  const bounds = arrayElements(text);
  return Array.from({ length: bounds.length / 2 }, (_, i) => text.slice(bounds[2 * i], bounds[2 * i + 1]));
};

describe('card JSON (point-store layout): element bounds and rows written from a card text', () => {
  it('finds each element of arrays with quotes, escapes, brackets and commas inside strings', () => {
    const cases: unknown[][] = [
      [],
      [null],
      ['a"b', 'c\\', '\\"', '[', ']', '{"x":1}', ',', ''],
      [[], {}, [[]], { a: [1, { b: '"]' }] }, 'end'],
      [1.5e-7, -1.25, 12345678901234, true, false],
      ['é Σ € 😀', '\u2028\u0000'],
    ];
    for (const arr of cases) {
      for (const text of [JSON.stringify(arr), JSON.stringify(arr, null, 2), ` ${JSON.stringify(arr, null, '\t')}\n`]) {
        const found = slices(text);
        expect(found.map((s) => JSON.parse(s))).toEqual(arr);
        // No surrounding whitespace in a slice.
        for (const s of found) expect(s).toBe(s.trim());
      }
    }
  });

  it('refuses a text that is not one whole JSON array (a damaged card), never reading past it', () => {
    for (const bad of [
      '',
      '   ',
      '{"a":1}',
      '"x"',
      '["a',
      '["a",',
      '[1,2',
      '[1,,2]',
      '[,1]',
      '[1,]',
      '[tru]',
      '[1 2]',
      '[01]',
    ])
      expect(() => arrayElements(bad)).toThrow(/card/);
    expect(() => renderCards(['["a", nul]'], ['id', 'x'], ['id'])).toThrow(/card/);
  });

  it('agrees with JSON.parse on 2,000 random arrays, compact and indented', () => {
    const next = random(20261126);
    for (let n = 0; n < 2000; n++) {
      const arr = Array.from({ length: Math.floor(next() * 9) }, () => value(next, 0));
      const text = n % 2 === 0 ? JSON.stringify(arr) : JSON.stringify(arr, null, n % 4 === 1 ? 1 : '\t');
      expect(slices(text).map((s) => JSON.parse(s))).toEqual(JSON.parse(JSON.stringify(arr)));
    }
  });

  it('writes rows that parse to what decodeCards reads, members in the order asked', () => {
    const next = random(7);
    const layout = ['id', 'name', 'tags', 'flag', 'sort_key', 'record'];
    const cards = Array.from({ length: 300 }, (_, i) =>
      JSON.stringify([`per_${i}`, value(next, 3), value(next, 1), next() < 0.5, i + 1, value(next, 0)]),
    );
    for (const columns of [layout, ['record', 'id'], ['tags', 'tags', 'missing', 'sort_key'], ['sort_key']]) {
      const decoded = decodeCards(cards, layout, columns).map(({ sort_key: _, ...row }) => row);
      const rendered = renderCards(cards, layout, columns);
      expect(rendered.map((t) => JSON.parse(t))).toEqual(decoded);
      expect(rendered.map((t) => Object.keys(JSON.parse(t)))).toEqual(decoded.map((r) => Object.keys(r)));
    }
  });
});

describe('JsonRows: rows that are JSON text in an answer', () => {
  const rows = [
    { id: 'per_1', name: 'Zoë "Z"', tags: ['a', 'b'] },
    { id: 'per_2', name: null, tags: [] },
  ];
  const texts = rows.map((r) => JSON.stringify(r));

  it('answers the JSON that JSON.stringify writes of the same object with plain rows', () => {
    const envelope = {
      ok: true,
      request_id: 'req_1',
      data: new JsonRows(texts),
      skipped: undefined,
      page: { returned: 2, next_cursor: null },
      warnings: [],
    };
    const plain = { ...envelope, data: rows };
    expect(answerJson(envelope)).toBe(JSON.stringify(plain));
    // JSON.stringify itself sees the rows through toJSON (an Idempotency-Key's stored answer).
    expect(JSON.stringify(envelope)).toBe(JSON.stringify(plain));
    expect(answerJson({ data: new JsonRows([]) })).toBe('{"data":[]}');
    expect(answerJson({ f: () => 1, n: 1 } as Record<string, unknown>)).toBe(JSON.stringify({ f: () => 1, n: 1 }));
  });

  it('is told apart from plain rows', () => {
    expect(holdsJsonRows({ data: new JsonRows(texts) })).toBe(true);
    expect(holdsJsonRows({ data: rows })).toBe(false);
    expect(plainRows(new JsonRows(texts))).toEqual(rows);
    expect(plainRows(rows)).toBe(rows);
    expect(new JsonRows(texts)).toHaveLength(2);
  });
});
