import { answerJson, holdsJsonRows, JsonRows, plainRows } from '../../src/domain/json-rows.js';
import { CardBounds, cardElements, decodeCards, renderCards } from '../../src/engine/duckdb/point-store/layout.js';

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

/** The elements of one card text, each as the text of its bytes. */
const slices = (text: string) => {
  const bytes = Buffer.from(text);
  const bounds = new CardBounds();
  cardElements(bytes, 0, bounds);
  return Array.from({ length: bounds.n / 2 }, (_, i) =>
    bytes.subarray(bounds.at[2 * i], bounds.at[2 * i + 1]).toString('utf8'),
  );
};
const elementsOf = (text: string) => cardElements(Buffer.from(text), 0, new CardBounds());

/** renderCards of card texts joined as the point store reads them, each row's object as a text. */
const rendered = (cards: string[], layout: string[], columns: string[]) => {
  const r = renderCards(Buffer.from(cards.join(',')), layout, columns, cards.length);
  return r.ends.map((end, i) => r.bytes.subarray(i === 0 ? 0 : r.ends[i - 1]! + 1, end).toString('utf8'));
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
      expect(() => elementsOf(bad)).toThrow(/card/);
    expect(() => rendered(['["a", nul]'], ['id', 'x'], ['id'])).toThrow(/card/);
    // Cards one after another must have one comma between them.
    expect(() => renderCards(Buffer.from('["a",1] ["b",2]'), ['id', 'sort_key'], ['id'], 2)).toThrow(/card/);
    expect(() => renderCards(Buffer.from('["a",1],,["b",2]'), ['id', 'sort_key'], ['id'], 2)).toThrow(/card/);
  });

  it('ends a card at its closing bracket: what follows is the next card, never part of this one', () => {
    const bounds = new CardBounds();
    const bytes = Buffer.from('["é",[1,"]"]],["x"]');
    expect(cardElements(bytes, 0, bounds)).toBe(bytes.indexOf(',["x"]'));
    expect(bounds.n).toBe(4);
    expect(cardElements(bytes, bytes.indexOf('["x"]'), bounds)).toBe(bytes.length);
    expect([...bounds.at.subarray(0, bounds.n)]).toEqual([bytes.length - 4, bytes.length - 1]);
    // More elements than the bounds first hold: they grow.
    const long = Buffer.from(JSON.stringify(Array.from({ length: 300 }, (_, i) => i)));
    cardElements(long, 0, bounds);
    expect(bounds.n).toBe(600);
    expect(long.subarray(bounds.at[598], bounds.at[599]).toString()).toBe('299');
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
      const rows = rendered(cards, layout, columns);
      expect(rows.map((t) => JSON.parse(t))).toEqual(decoded);
      expect(rows.map((t) => Object.keys(JSON.parse(t)))).toEqual(decoded.map((r) => Object.keys(r)));
    }
  });

  it("reads each row's sort_key from its card, and any first rows are a JSON array's members", () => {
    const layout = ['id', 'name', 'sort_key'];
    const cards = ['["per_1","Zoë",7]', ' [ "per_2" , null , 12 ] ', '["per_3","a,b",30]'];
    const r = renderCards(Buffer.from(cards.join(',')), layout, ['name', 'id'], cards.length);
    expect(r.sortKeys).toEqual([7, 12, 30]);
    for (let k = 0; k <= cards.length; k++) {
      const first = r.bytes.subarray(0, k === 0 ? 0 : r.ends[k - 1]).toString('utf8');
      expect(JSON.parse(`[${first}]`)).toEqual(
        [
          { name: 'Zoë', id: 'per_1' },
          { name: null, id: 'per_2' },
          { name: 'a,b', id: 'per_3' },
        ].slice(0, k),
      );
    }
    expect(renderCards(new Uint8Array(0), layout, ['id'], 0)).toEqual({
      bytes: Buffer.alloc(0),
      ends: [],
      sortKeys: [],
    });
    // Told of fewer cards than there are, the output grows past its first size.
    const many = Array.from({ length: 500 }, (_, i) => `["per_${i}","${'x'.repeat(i % 7)}",${i + 1}]`);
    const grown = renderCards(Buffer.from(many.join(',')), layout, ['id', 'missing', 'name'], 1);
    expect(JSON.parse(`[${grown.bytes.toString('utf8')}]`)).toEqual(
      many.map((c) => {
        const [id, name] = JSON.parse(c) as string[];
        return { id, missing: null, name };
      }),
    );
  });
});

describe('JsonRows: rows that are JSON text in an answer', () => {
  const rows = [
    { id: 'per_1', name: 'Zoë "Z"', tags: ['a', 'b'] },
    { id: 'per_2', name: null, tags: [] },
  ];
  const bytes = () => Buffer.from(rows.map((r) => JSON.stringify(r)).join(','));

  it('answers the JSON that JSON.stringify writes of the same object with plain rows', () => {
    const envelope = {
      ok: true,
      request_id: 'req_1',
      data: new JsonRows(bytes(), 2),
      skipped: undefined,
      page: { returned: 2, next_cursor: null },
      warnings: [],
    };
    const plain = { ...envelope, data: rows };
    expect(answerJson(envelope).toString('utf8')).toBe(JSON.stringify(plain));
    // JSON.stringify itself sees the rows through toJSON (an Idempotency-Key's stored answer).
    expect(JSON.stringify(envelope)).toBe(JSON.stringify(plain));
    expect(answerJson({ data: new JsonRows(new Uint8Array(0), 0) }).toString('utf8')).toBe('{"data":[]}');
    expect(answerJson({ data: new JsonRows(bytes(), 2) }).toString('utf8')).toBe(JSON.stringify({ data: rows }));
    expect(answerJson({ f: () => 1, n: 1 } as Record<string, unknown>).toString('utf8')).toBe(
      JSON.stringify({ f: () => 1, n: 1 }),
    );
  });

  it('is told apart from plain rows', () => {
    expect(holdsJsonRows({ data: new JsonRows(bytes(), 2) })).toBe(true);
    expect(holdsJsonRows({ data: rows })).toBe(false);
    expect(plainRows(new JsonRows(bytes(), 2))).toEqual(rows);
    expect(plainRows(rows)).toBe(rows);
    expect(new JsonRows(bytes(), 2)).toHaveLength(2);
  });
});
