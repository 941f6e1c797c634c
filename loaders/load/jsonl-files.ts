import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The loader's staged-row files (the ReleaseWriter port, src/engine/release-writer.ts, takes them in): normalized
 * rows as JSON Lines, `rowsPerFile` rows a file. JSON.stringify is native and handles lists and nested records in
 * one call; the writer reads a file on its own threads while the workers build the next one. Writes are
 * synchronous: on a worker thread nothing else waits, and on the main thread the files are few (companies).
 */
export class JsonlFiles {
  private buf: string[] = [];
  private count = 0;

  constructor(
    private readonly dir: string,
    private readonly prefix: string,
    private readonly rowsPerFile: number,
  ) {}

  /** Buffers one serialized row; returns the path of a file when this row completed one. */
  add(line: string): string | null {
    this.buf.push(line);
    return this.buf.length >= this.rowsPerFile ? this.flush() : null;
  }

  /** Writes the buffered rows, if any, and returns the file's path. */
  flush(): string | null {
    if (this.buf.length === 0) return null;
    const file = join(this.dir, `${this.prefix}-${this.count++}.jsonl`);
    writeFileSync(file, this.buf.join('\n'));
    this.buf = [];
    return file;
  }
}
