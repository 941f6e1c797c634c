/**
 * Rows that are JSON already (a search page read from the embedded engine's cards, QueryResult.json): an answer
 * writes their bytes as they are (`answerJson`) rather than parsing every row and serializing it again. Whatever else
 * serializes them (JSON.stringify: an Idempotency-Key's stored answer, a check of the output schema) gets the same
 * rows through `toJSON`.
 */
export class JsonRows {
  /**
   * `bytes`: the rows' JSON objects in UTF-8, one after another with a comma between each two (what goes between the
   * brackets of a JSON array); `length`: how many rows they are.
   */
  constructor(
    readonly bytes: Uint8Array,
    readonly length: number,
  ) {}

  /** The rows as objects. */
  rows(): Record<string, unknown>[] {
    return JSON.parse(`[${Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.length).toString('utf8')}]`);
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
 * JSON.stringify of an object whose members may be JsonRows, those written from their bytes, as UTF-8. The same JSON:
 * members in order, undefined ones left out.
 */
export function answerJson(body: Record<string, unknown>): Buffer {
  const parts: Uint8Array[] = [];
  let text = '{';
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    const member = value instanceof JsonRows ? '[' : JSON.stringify(value);
    // Functions and symbols have no JSON (JSON.stringify leaves such members out).
    if (member === undefined) continue;
    text += `${text === '{' ? '' : ','}${JSON.stringify(key)}:${member}`;
    if (value instanceof JsonRows) {
      parts.push(Buffer.from(text), value.bytes);
      text = ']';
    }
  }
  parts.push(Buffer.from(`${text}}`));
  return Buffer.concat(parts);
}
