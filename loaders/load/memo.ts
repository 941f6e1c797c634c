/**
 * Memoizes a pure one-argument function. Source dumps repeat titles, countries, industry labels and
 * company names across millions of rows, so most normalization is a map lookup. The cache is cleared
 * when full to bound memory on dumps with many distinct values.
 */
export function memo<R>(fn: (s: string) => R, max = 200_000): (s: string) => R {
  let cache = new Map<string, R>();
  return (s: string): R => {
    const hit = cache.get(s);
    if (hit !== undefined || cache.has(s)) return hit as R;
    const v = fn(s);
    if (cache.size >= max) cache = new Map();
    cache.set(s, v);
    return v;
  };
}
