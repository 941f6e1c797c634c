import { createWriteStream, type WriteStream } from 'node:fs';
import type { Reject } from './types.js';

/** First rejects kept in the report; the file holds all of them. */
export const REPORTED_REJECTS = 100;

/**
 * Collects skipped rows: every one is appended to the rejects file (JSON Lines), the first 100 stay in
 * memory for the report. In strict mode the first reject aborts the load instead.
 */
export class RejectLog {
  readonly first: Reject[] = [];
  private readonly out: WriteStream;
  private readonly counts = new Map<string, number>();

  constructor(
    readonly file: string,
    private readonly strict: boolean,
  ) {
    this.out = createWriteStream(file);
  }

  add(kind: 'people' | 'companies', r: Reject): void {
    if (this.strict) throw new Error(`${r.file}:${r.line}: ${r.reason}`);
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    if (this.first.length < REPORTED_REJECTS) this.first.push(r);
    this.out.write(`${JSON.stringify(r)}\n`);
  }

  count(kind: 'people' | 'companies'): number {
    return this.counts.get(kind) ?? 0;
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => this.out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  }
}
