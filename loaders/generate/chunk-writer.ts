import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';

/**
 * Collects lines and writes them in ~2 MB chunks, waiting for 'drain' when the stream's buffer is
 * full, so a 10 M row run keeps memory flat and issues few write calls.
 */
export class ChunkWriter {
  private readonly stream: WriteStream;
  private parts: string[] = [];
  private size = 0;

  constructor(
    path: string,
    private readonly chunkChars = 2 * 1024 * 1024,
  ) {
    this.stream = createWriteStream(path, { encoding: 'utf8', highWaterMark: 4 * 1024 * 1024 });
  }

  /** Resolves once the file exists (created or emptied), before any line is written. */
  async opened(): Promise<void> {
    if (this.stream.pending) await once(this.stream, 'ready');
  }

  /** Adds one line (newline appended); true when a chunk is full and `flush()` should be awaited. */
  push(text: string): boolean {
    this.parts.push(text);
    this.size += text.length + 1;
    return this.size >= this.chunkChars;
  }

  async flush(): Promise<void> {
    if (this.parts.length === 0) return;
    const chunk = `${this.parts.join('\n')}\n`;
    this.parts = [];
    this.size = 0;
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    await this.flush();
    this.stream.end();
    await once(this.stream, 'finish');
  }
}
