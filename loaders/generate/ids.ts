import { mix32 } from './rng.js';

const PERSON = 0x50455253;
const COMPANY = 0x434f4d50;
const B36_5 = 36 ** 5;

/**
 * `<prefix>` + 12 base36 chars. The last 7 encode a bijection of the index (unique for any index
 * below 2^32); the first 5 are hash noise so ids do not sort by index or share a visible prefix.
 */
function makeId(prefix: string, kind: number, seed: number, index: number): string {
  const key = mix32(seed ^ kind);
  const a = mix32((index ^ key) >>> 0);
  const b = mix32(a ^ mix32(key + 1)) % B36_5;
  return prefix + b.toString(36).padStart(5, '0') + a.toString(36).padStart(7, '0');
}

export function personId(seed: number, index: number): string {
  return makeId('per_', PERSON, seed, index);
}

export function companyId(seed: number, index: number): string {
  return makeId('com_', COMPANY, seed, index);
}
