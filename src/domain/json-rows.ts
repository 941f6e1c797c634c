/**
 * Rows that are JSON text already (a search page read from the embedded engine's cards, QueryResult.json): an answer
 * writes their text as it is (`answerJson`) rather than parsing every row and serializing it again. Whatever else
 * serializes them (JSON.stringify: an Idempotency-Key's stored answer, a check of the output schema) gets the same
 * rows through `toJSON`.
 */
export class JsonRows {
  constructor(readonly texts: readonly string[]) {}

  get length(): number {
    return this.texts.length;
  }

  /** The rows as objects. */
  rows(): Record<string, unknown>[] {
    return this.texts.map((t) => JSON.parse(t) as Record<string, unknown>);
  }

  toJSON(): Record<string, unknown>[] {
    return this.rows();
  }
}

/** A value with its JsonRows as plain rows (what a reader of the answer's objects needs). */
export function plainRows(value: unknown): unknown {
  return value instanceof JsonRows ? value.rows() : value;
}

/** True when some member of the object is JsonRows (answerJson then writes it faster than JSON.stringify). */
export function holdsJsonRows(body: Record<string, unknown>): boolean {
  return Object.values(body).some((v) => v instanceof JsonRows);
}

/**
 * JSON.stringify of an object whose members may be JsonRows, those written from their text. The same JSON: members in
 * order, undefined ones left out.
 */
export function answerJson(body: Record<string, unknown>): string {
  const members: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    const text = value instanceof JsonRows ? `[${value.texts.join(',')}]` : JSON.stringify(value);
    // Functions and symbols have no JSON (JSON.stringify leaves such members out).
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(',')}}`;
}
