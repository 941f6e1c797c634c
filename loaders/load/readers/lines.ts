import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { setTimeout as sleep } from 'node:timers/promises';
import { createGunzip } from 'node:zlib';

export interface TextChunkSink {
  /** Bytes of the file consumed so far (for progress). */
  bytes: number;
  /**
   * Set while the file is still being written (a seed's people, generated on another thread): it is read as it grows
   * until this settles, then to its end; a rejection fails the read.
   */
  writing?: Promise<void>;
}

/** Whether a dump is gzip-compressed (`.jsonl.gz`, `.csv.gz`): it is then read through gunzip. */
export const isGzip = (file: string): boolean => /\.gz$/i.test(file);

/**
 * The bytes of a dump in large reads, gunzipped when it is compressed; `sink.bytes` counts the bytes of the file
 * itself (compressed), which is what progress compares with the file's size.
 */
function dumpBytes(file: string, sink: TextChunkSink): AsyncIterable<Buffer> {
  if (sink.writing && !isGzip(file)) return growingBytes(file, sink, sink.writing);
  const raw = createReadStream(file, { highWaterMark: 1 << 20 });
  if (!isGzip(file)) {
    return (async function* () {
      for await (const buf of raw) {
        sink.bytes += (buf as Buffer).length;
        yield buf as Buffer;
      }
    })();
  }
  const gunzip = createGunzip({ chunkSize: 1 << 20 });
  raw.on('data', (buf) => {
    sink.bytes += (buf as Buffer).length;
  });
  raw.on('error', (e) => gunzip.destroy(e));
  return raw.pipe(gunzip);
}

/** How long a reader that caught up with a file being written waits before it reads again. */
const GROWING_POLL_MS = 20;

/**
 * The bytes of a file another thread is still writing, in reads of up to 1 MB, as they are written. A read that finds
 * nothing new waits for more (or for the writer to finish); a read that finds nothing after the writer had finished
 * is the end of the file.
 */
async function* growingBytes(file: string, sink: TextChunkSink, writing: Promise<void>): AsyncGenerator<Buffer> {
  let finished = false;
  const done = writing.then(() => {
    finished = true;
  });
  // A failure is thrown where the reader next waits; until then it must not count as unhandled.
  done.catch(() => undefined);
  const fh = await open(file, 'r');
  try {
    let position = 0;
    for (;;) {
      const wasFinished = finished;
      const buf = Buffer.allocUnsafe(1 << 20);
      const { bytesRead } = await fh.read(buf, 0, buf.length, position);
      if (bytesRead > 0) {
        position += bytesRead;
        sink.bytes += bytesRead;
        yield buf.subarray(0, bytesRead);
        continue;
      }
      if (wasFinished) return;
      await Promise.race([done, sleep(GROWING_POLL_MS)]);
    }
  } finally {
    await fh.close();
  }
}

/**
 * Decoded text of a file in large chunks, with the running byte count. Splitting into lines is left to
 * the readers because CSV records may span lines. Large reads keep the per-chunk overhead negligible.
 */
export async function* textChunks(file: string, sink: TextChunkSink): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let first = true;
  for await (const buf of dumpBytes(file, sink)) {
    let text = decoder.write(buf as Buffer);
    if (first) {
      // A UTF-8 byte-order mark would otherwise become part of the first key or header.
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    if (text) yield text;
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

/** Whole lines of a JSON Lines file as raw bytes, with the number of the first line. */
export interface LineChunk {
  firstLine: number;
  bytes: Uint8Array;
}

/**
 * A file cut into chunks of whole lines, as bytes: finding newlines is a native byte search, and the
 * decoding and splitting happen where the lines are used (on worker threads for people), so the reading
 * thread does almost nothing per row.
 */
export async function* lineChunks(file: string, sink: TextChunkSink): AsyncGenerator<LineChunk> {
  let carry: Buffer | null = null;
  let line = 1;
  for await (const read of dumpBytes(file, sink)) {
    const buf: Buffer = carry ? Buffer.concat([carry, read as Buffer]) : (read as Buffer);
    const end = buf.lastIndexOf(10);
    if (end < 0) {
      carry = buf;
      continue;
    }
    // Copied, so the chunk owns its memory (read buffers may be pooled) and can be posted to a worker.
    const bytes = new Uint8Array(buf.subarray(0, end + 1));
    carry = end + 1 < buf.length ? buf.subarray(end + 1) : null;
    yield { firstLine: line, bytes };
    for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) line++;
  }
  if (carry?.length) yield { firstLine: line, bytes: new Uint8Array(carry) };
}

export interface Line {
  /** 1-based line number. */
  line: number;
  text: string;
}

/**
 * The non-empty lines of a chunk (without `\n` or a trailing `\r`), numbered; a BOM on line 1 is dropped.
 * Each line is decoded on its own: one non-ASCII character would otherwise make the whole chunk, and
 * every line sliced from it, a two-byte string, which parses and serializes measurably slower.
 */
export function splitLines(chunk: LineChunk): Line[] {
  const buf = Buffer.from(chunk.bytes.buffer, chunk.bytes.byteOffset, chunk.bytes.byteLength);
  const out: Line[] = [];
  let n = chunk.firstLine;
  let start = chunk.firstLine === 1 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  while (start < buf.length) {
    let i = buf.indexOf(10, start);
    if (i === -1) i = buf.length;
    const end = i > start && buf[i - 1] === 13 ? i - 1 : i;
    if (end > start) out.push({ line: n, text: buf.toString('utf8', start, end) });
    n++;
    start = i + 1;
  }
  return out;
}
