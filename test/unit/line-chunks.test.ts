import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type LineChunk, lineChunks, splitLines } from '../../loaders/load/readers/lines.js';

/** A dump of `n` lines of varied lengths (reads are 1 MB, so lines cross reads), with one line longer than a read. */
function dumpText(n: number): { text: string; lines: string[] } {
  const lines: string[] = [];
  for (let i = 1; i <= n; i++) {
    const pad = i === 1_234 ? 'x'.repeat(2_500_000) : 'é'.repeat((i * 7919) % 1_500);
    lines.push(JSON.stringify({ person_id: `per_${i}`, pad }));
  }
  // CRLF on some lines, an empty line, and no newline after the last one.
  const text = lines.map((l, i) => (i % 5 === 0 ? `${l}\r\n` : i === 11 ? `${l}\n\n` : `${l}\n`)).join('');
  return { text: text.slice(0, -1), lines };
}

async function chunksOf(file: string): Promise<LineChunk[]> {
  const out: LineChunk[] = [];
  for await (const c of lineChunks(file, { bytes: 0 })) out.push(c);
  return out;
}

describe('lineChunks (JSON Lines read for the workers)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cds-lines-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['plain', false],
    ['gzip', true],
  ])('cuts a %s dump into chunks of whole lines, numbered from the file', async (_, gz) => {
    const { text, lines } = dumpText(4_000);
    const bytes = Buffer.from(`\ufeff${text}`, 'utf8');
    const file = join(dir, gz ? 'people.jsonl.gz' : 'people.jsonl');
    writeFileSync(file, gz ? gzipSync(bytes) : bytes);
    const chunks = await chunksOf(file);
    expect(chunks.length).toBeGreaterThan(5);
    // Together the chunks are the file, byte for byte; each ends at a newline but the last.
    expect(Buffer.concat(chunks.map((c) => c.bytes)).equals(bytes)).toBe(true);
    for (const c of chunks.slice(0, -1)) expect(c.bytes[c.bytes.length - 1]).toBe(10);
    // A chunk's first line is one more than the newlines before it.
    let newlines = 0;
    for (const c of chunks) {
      expect(c.firstLine).toBe(newlines + 1);
      newlines += c.bytes.filter((b) => b === 10).length;
    }
    // Split, the lines come back with their numbers in the file (the empty line 13 is skipped, the BOM dropped).
    const split = chunks.flatMap((c) => splitLines(c));
    expect(split.map((l) => l.text)).toEqual(lines);
    expect(split[11]!.line).toBe(12);
    expect(split[12]!.line).toBe(14);
    expect(split.at(-1)!.line).toBe(4_001);
  });
});
