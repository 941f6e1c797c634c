/** Up to `count` distinct values from `draw`; gives up after 2×count draws so small vocabularies end fast. */
export function distinct<T>(count: number, draw: () => T): T[] {
  const out: T[] = [];
  for (let i = 0; i < count * 2 && out.length < count; i++) {
    const v = draw();
    if (!out.includes(v)) out.push(v);
  }
  return out;
}
