import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A file's buffer starts at 1 MB and doubles as rows need (a file of 25,000 people is about 25 MB). */
const FIRST_BUFFER_BYTES = 1 << 20;

/**
 * The loader's staged-row files (the ReleaseWriter port, src/engine/release-writer.ts, takes them in): normalized
 * rows as JSON Lines, `rowsPerFile` rows a file. JSON.stringify is native and handles lists and nested records in
 * one call; the writer reads a file on its own threads while the workers build the next one. Each row is encoded
 * as UTF-8 straight into one reused buffer: joining the rows into one string first cost a worker about a tenth of
 * its time (the join's copy, and a copy as two-byte characters when one row held a non-ASCII character). Writes are
 * synchronous: on a worker thread nothing else waits, and on the main thread the files are few (companies).
 */
export class JsonlFiles {
  private buf = Buffer.allocUnsafe(0);
  private bytes = 0;
  private rows = 0;
  private count = 0;

  constructor(
    private readonly dir: string,
    private readonly prefix: string,
    private readonly rowsPerFile: number,
  ) {}

  /** Buffers one serialized row; returns the path of a file when this row completed one. */
  add(line: string): string | null {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8 (a surrogate pair takes 4 for its two), plus the newline.
    const room = this.bytes + line.length * 3 + 1;
    if (room > this.buf.length) this.grow(room);
    if (this.rows > 0) this.buf[this.bytes++] = 0x0a;
    this.bytes += this.buf.write(line, this.bytes, 'utf8');
    this.rows++;
    return this.rows >= this.rowsPerFile ? this.flush() : null;
  }

  /** Writes the buffered rows, if any, and returns the file's path; the buffer is kept for the next file. */
  flush(): string | null {
    if (this.rows === 0) return null;
    const file = join(this.dir, `${this.prefix}-${this.count++}.jsonl`);
    writeFileSync(file, this.buf.subarray(0, this.bytes));
    this.bytes = 0;
    this.rows = 0;
    return file;
  }

  /** Writes what is buffered, as flush does, and lets the buffer go: the pass that used it is over. */
  close(): string | null {
    const file = this.flush();
    this.buf = Buffer.allocUnsafe(0);
    return file;
  }

  private grow(atLeast: number): void {
    let size = Math.max(this.buf.length, FIRST_BUFFER_BYTES);
    while (size < atLeast) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.bytes);
    this.buf = next;
  }
}
