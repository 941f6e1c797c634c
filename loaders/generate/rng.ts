import { mix32 } from '../../src/domain/hash.js';

export { mix32 };
/**
 * sfc32: a small, fast, well-mixed 32-bit PRNG. The generator reseeds it per row from (seed, stream,
 * index), so a row's draws do not shift when rows before it draw more or fewer numbers.
 */
export class Rng {
  private a = 0;
  private b = 0;
  private c = 0;
  private d = 0;

  constructor(seed = 0) {
    this.reseed(seed, 0, 0);
  }

  /** Positions the generator on row `index` of stream `stream` (people, companies, ...). */
  reseed(seed: number, stream: number, index: number): this {
    this.a = mix32(seed ^ 0x9e3779b9);
    this.b = mix32(stream + 0x85ebca6b);
    this.c = mix32(index ^ 0xc2b2ae35);
    this.d = mix32((index / 0x100000000) ^ seed ^ 0x27d4eb2f);
    // A few rounds spread the seed bits over the whole state before the first draw.
    for (let i = 0; i < 12; i++) this.next();
    return this;
  }

  /** Next unsigned 32-bit integer. */
  next(): number {
    const a = this.a,
      b = this.b,
      c = this.c;
    const d = (this.d + 1) | 0;
    const t = (((a + b) | 0) + d) | 0;
    this.d = d;
    this.a = b ^ (b >>> 9);
    this.b = (c + (c << 3)) | 0;
    this.c = (((c << 21) | (c >>> 11)) + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** Uniform integer in [min, max], inclusive. */
  range(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)]!;
  }

  /** Log-uniform in [min, max]: many small values, few large ones. */
  logUniform(min: number, max: number): number {
    return Math.exp(Math.log(min) + this.float() * (Math.log(max) - Math.log(min)));
  }

  /** Standard normal (Box-Muller, one value per call; the second is dropped to keep the stream simple). */
  normal(): number {
    const u = 1 - this.float();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.float());
  }

  /** A random string of `n` characters from `alphabet`. */
  chars(n: number, alphabet: string): string {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(this.float() * alphabet.length)];
    return s;
  }

  digits(n: number): string {
    return this.chars(n, '0123456789');
  }
}
