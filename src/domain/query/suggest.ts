/** "Did you mean" for unknown keys and fields: the closest candidate by edit distance, when close enough. */
export function closest(input: string, candidates: readonly string[]): string | undefined {
  const a = input.trim().toLowerCase();
  if (a.length === 0 || a.length > 64) return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = distance(a, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  // Short inputs are close to everything; require the edit to be a small part of the word.
  return bestDistance <= 3 && bestDistance * 2 < a.length ? best : undefined;
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}
