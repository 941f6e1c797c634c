import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { constants, createGzip } from 'node:zlib';

/**
 * Collects lines and writes them in ~2 MB chunks, waiting for 'drain' when the stream's buffer is
 * full, so a 10 M row run keeps memory flat and issues few write calls. With `gzip` the file is written
 * gzip-compressed (level 1: about 28 % of the size at 30 M, compressed on libuv's threads), as the loader reads `.gz`.
 */
export class ChunkWriter {
  private readonly file: WriteStream;
  /** Where chunks go: the file, or the gzip stream in front of it. */
  private readonly stream: Writable;
  private parts: string[] = [];
  private size = 0;

  constructor(
    path: string,
    private readonly chunkChars = 2 * 1024 * 1024,
    gzip = false,
  ) {
    this.file = createWriteStream(path, { encoding: 'utf8', highWaterMark: 4 * 1024 * 1024 });
    if (gzip) {
      const zip = createGzip({ level: constants.Z_BEST_SPEED, chunkSize: 1024 * 1024 });
      zip.pipe(this.file);
      this.stream = zip;
    } else this.stream = this.file;
  }

  /** Resolves once the file exists (created or emptied), before any line is written. */
  async opened(): Promise<void> {
    if (this.file.pending) await once(this.file, 'ready');
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
    // The file's own finish: with gzip, the compressed tail is written after the gzip stream finishes.
    await once(this.file, 'finish');
  }
}
