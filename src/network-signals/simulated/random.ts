import { mix32 } from '../../domain/hash.js';

/**
 * Deterministic randomness for the simulated network: every draw is a pure function of its key parts
 * (seed, target, post, index, ...), so a target answers the same engagers for the same data release and
 * time, in any order and after a restart.
 */

/** FNV-1a over the parts, finished with a murmur3 mix: a well-spread unsigned 32-bit hash. */
export function hash32(...parts: readonly (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const s = `${part}\u0001`;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
  }
  return mix32(h);
}

/** Uniform in [0, 1) from the key parts. */
export function unit(...parts: readonly (string | number)[]): number {
  return hash32(...parts) / 4294967296;
}

/** Standard normal from the key parts (Box-Muller over two independent draws). */
export function normal(...parts: readonly (string | number)[]): number {
  const u1 = Math.max(unit(...parts, 'n1'), 1e-12);
  const u2 = unit(...parts, 'n2');
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/** A Poisson-distributed count with mean `lambda` (exact for small means, normal approximation above 30). */
export function poisson(lambda: number, ...parts: readonly (string | number)[]): number {
  if (lambda <= 0) return 0;
  if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * normal(...parts, 'pn')));
  const limit = Math.exp(-lambda);
  let k = 0;
  let p = unit(...parts, 'p', 0);
  while (p > limit && k < 1000) {
    k++;
    p *= unit(...parts, 'p', k);
  }
  return k;
}

/** One element of a non-empty list. */
export function pick<T>(list: readonly T[], ...parts: readonly (string | number)[]): T {
  return list[hash32(...parts) % list.length]!;
}
