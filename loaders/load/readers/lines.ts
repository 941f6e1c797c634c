import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

export interface TextChunkSink {
  /** Bytes of the file consumed so far (for progress). */
  bytes: number;
}

/**
 * Decoded text of a file in large chunks, with the running byte count. Splitting into lines is left to
 * the readers because CSV records may span lines. Large reads keep the per-chunk overhead negligible.
 */
export async function* textChunks(file: string, sink: TextChunkSink): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let first = true;
  for await (const buf of createReadStream(file, { highWaterMark: 1 << 20 })) {
    sink.bytes += (buf as Buffer).length;
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

export interface Line {
  /** 1-based line number. */
  line: number;
  text: string;
}

/** Lines of a file (without `\n` or a trailing `\r`), numbered from 1. */
export async function* lines(file: string, sink: TextChunkSink): AsyncGenerator<Line[]> {
  let carry = '';
  let n = 0;
  for await (const chunk of textChunks(file, sink)) {
    const text = carry + chunk;
    const out: Line[] = [];
    let start = 0;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', start)) {
      const end = i > start && text.charCodeAt(i - 1) === 13 ? i - 1 : i;
      out.push({ line: ++n, text: text.slice(start, end) });
      start = i + 1;
    }
    carry = text.slice(start);
    if (out.length) yield out;
  }
  if (carry !== '') yield [{ line: ++n, text: carry.endsWith('\r') ? carry.slice(0, -1) : carry }];
}
