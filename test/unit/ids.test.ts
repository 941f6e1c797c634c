import { ID_PREFIX, newId, randomToken } from '../../src/domain/ids.js';

const TOKEN = /^[0-9a-zA-Z]+$/;

describe('ids', () => {
  it('makes tokens of the asked length from the 62-character alphabet, across many pool refills', () => {
    // 40,000 tokens of 16 characters use the 4,096-byte pool about 156 times over.
    const seen = new Set<string>();
    const lengths = [16, 4, 6, 10, 16, 13];
    let long = 0;
    // Checked in the loop and asserted once: 80,000 expect calls cost more than the tokens.
    const bad: string[] = [];
    for (let i = 0; i < 40_000; i++) {
      const length = lengths[i % lengths.length]!;
      const t = randomToken(length);
      if (t.length !== length || !TOKEN.test(t)) bad.push(`${length}: ${t}`);
      if (length === 16) {
        seen.add(t);
        long++;
      }
    }
    // A third of the tokens had 16 characters (62^16 values): a byte run used twice would show up as a duplicate.
    expect(bad).toEqual([]);
    expect(long).toBeGreaterThan(13_000);
    expect(seen.size).toBe(long);
  });

  it('spreads characters over the whole alphabet', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 5_000; i++) for (const c of randomToken(16)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 80,000 characters: about 1,290 each (1,250 to 1,550 with the modulo's slight lean to the first eight).
    for (const n of counts.values()) {
      expect(n).toBeGreaterThan(1_000);
      expect(n).toBeLessThan(1_800);
    }
  });

  it('prefixes ids by kind', () => {
    expect(newId('hold')).toMatch(/^hld_[0-9a-zA-Z]{16}$/);
    expect(newId('request', 8)).toMatch(/^req_[0-9a-zA-Z]{8}$/);
    expect(new Set(Object.values(ID_PREFIX)).size).toBe(Object.keys(ID_PREFIX).length);
  });

  it('refuses a token longer than its pool', () => {
    expect(() => randomToken(5_000)).toThrow(RangeError);
  });
});
