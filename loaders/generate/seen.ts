/**
 * A set of strings kept as 64-bit hashes in typed arrays: keeps emails and profile slugs unique at
 * 10 M+ rows with ~16 bytes per entry, where a Set<string> would hold every string.
 */
export class SeenSet {
  private hi: Uint32Array;
  private lo: Uint32Array;
  private used: Uint8Array;
  private count = 0;

  constructor(expected = 1024) {
    let size = 1024;
    while (size < expected * 2) size *= 2;
    this.hi = new Uint32Array(size);
    this.lo = new Uint32Array(size);
    this.used = new Uint8Array(size);
  }

  get size(): number {
    return this.count;
  }

  /** Adds `s`; false when it was already present. */
  add(s: string): boolean {
    let h1 = 0x811c9dc5;
    let h2 = 0x12345679;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
      h2 ^= h2 >>> 15;
    }
    h1 >>>= 0;
    h2 >>>= 0;
    if (this.count * 2 >= this.used.length) this.grow();
    return this.insert(h1, h2);
  }

  private insert(h1: number, h2: number): boolean {
    const mask = this.used.length - 1;
    let i = (h1 ^ Math.imul(h2, 0x9e3779b1)) & mask;
    while (this.used[i]) {
      if (this.hi[i] === h1 && this.lo[i] === h2) return false;
      i = (i + 1) & mask;
    }
    this.used[i] = 1;
    this.hi[i] = h1;
    this.lo[i] = h2;
    this.count++;
    return true;
  }

  private grow(): void {
    const { hi, lo, used } = this;
    const size = used.length * 2;
    this.hi = new Uint32Array(size);
    this.lo = new Uint32Array(size);
    this.used = new Uint8Array(size);
    this.count = 0;
    for (let i = 0; i < used.length; i++) if (used[i]) this.insert(hi[i]!, lo[i]!);
  }
}
