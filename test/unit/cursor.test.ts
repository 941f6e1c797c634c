import { canonicalJson, decodeCursor, encodeCursor, queryHash } from '../../src/domain/cursor.js';
import type { AppError } from '../../src/domain/errors/index.js';

const secret = 'test-secret';
const q = queryHash({ filter: { countries: ['us'] }, columns: ['id'] });

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as AppError).code;
  }
  return 'none';
}

describe('cursor codec', () => {
  it('round-trips', () => {
    const t = encodeCursor(secret, { r: '0.1.0+r1', q, k: 42 });
    expect(decodeCursor(secret, t, { buildLabel: '0.1.0+r1', queryHash: q }).k).toBe(42);
  });

  it('canonical JSON writes a list of plain values as each value is written, in order', () => {
    const lists: unknown[][] = [
      [],
      ['acme.com', 'b\u00fccher.de', 'quote " and \\ backslash', '😀', ''],
      [1, -0, 2.5, 1e21, null, true, false, Number.NaN],
      [null, undefined, 'x'],
    ];
    for (const list of lists) expect(canonicalJson(list)).toBe(`[${list.map((v) => canonicalJson(v)).join(',')}]`);
    expect(canonicalJson(['b', { d: 1, c: [2, 'x'] }, 3])).toBe('["b",{"c":[2,"x"],"d":1},3]');
  });

  it('canonical JSON ignores key order', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] })).toBe(canonicalJson({ a: [{ c: 2, d: 1 }], b: 1 }));
    expect(queryHash({ x: 1, y: 2 })).toBe(queryHash({ y: 2, x: 1 }));
  });

  it.each([
    [
      'a tampered body',
      (t: string) =>
        `${Buffer.from(JSON.stringify({ r: '0.1.0+r1', q, k: 9999 })).toString('base64url')}.${t.split('.')[1]}`,
    ],
    ['a tampered signature', (t: string) => `${t.split('.')[0]}.${'A'.repeat(43)}`],
    ['garbage', () => 'not-a-cursor'],
    ['an empty string', () => ''],
    ['another secret', () => encodeCursor('other', { r: '0.1.0+r1', q, k: 1 })],
  ])('%s answers request.invalid', (_n, make) => {
    const t = encodeCursor(secret, { r: '0.1.0+r1', q, k: 42 });
    expect(codeOf(() => decodeCursor(secret, make(t), { buildLabel: '0.1.0+r1', queryHash: q }))).toBe(
      'request.invalid',
    );
  });

  it('another release answers cursor.expired', () => {
    const t = encodeCursor(secret, { r: '0.1.0+r1', q, k: 42 });
    expect(codeOf(() => decodeCursor(secret, t, { buildLabel: '0.1.0+r2', queryHash: q }))).toBe('cursor.expired');
  });

  it('another query answers request.invalid', () => {
    const t = encodeCursor(secret, { r: '0.1.0+r1', q, k: 42 });
    expect(
      codeOf(() => decodeCursor(secret, t, { buildLabel: '0.1.0+r1', queryHash: queryHash({ other: true }) })),
    ).toBe('request.invalid');
  });
});
