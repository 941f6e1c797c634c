import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonlFiles } from '../../loaders/load/jsonl-files.js';

/** Rows of every kind of text a dump holds: ASCII, accents, CJK, emoji (surrogate pairs), a lone surrogate, escapes. */
function rowOf(i: number): Record<string, unknown> {
  const texts = [
    'Ada Lovelace',
    'José Müller',
    '王小明',
    'Zoë 👩‍💻 Ops',
    'broken \ud800 half',
    'quote " and \\ and \n',
  ];
  return {
    id: `per_${i}`,
    name: texts[i % texts.length],
    // Long rows now and then, so the buffer has to grow within one file.
    about: i % 97 === 0 ? 'ü'.repeat(400_000) : null,
    skills: ['a', 'ß', String(i)],
  };
}

describe('JsonlFiles (the loader staging files)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cds-jsonl-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes each row as one UTF-8 line, rowsPerFile rows a file, the rest on close', () => {
    const out = new JsonlFiles(dir, 'w0-people', 250);
    const lines = Array.from({ length: 1_030 }, (_, i) => JSON.stringify(rowOf(i)));
    const files: string[] = [];
    for (const line of lines) {
      const f = out.add(line);
      if (f) files.push(f);
    }
    expect(files).toHaveLength(4);
    const last = out.close();
    expect(last).not.toBeNull();
    files.push(last!);
    expect(files.map((f) => f.slice(dir.length + 1))).toEqual([0, 1, 2, 3, 4].map((k) => `w0-people-${k}.jsonl`));
    const read = files.map((f) => readFileSync(f));
    // The same bytes as the rows joined by newlines and encoded as UTF-8 (no trailing newline).
    for (let k = 0; k < read.length; k++) {
      const expected = Buffer.from(lines.slice(k * 250, (k + 1) * 250).join('\n'), 'utf8');
      expect(read[k]!.equals(expected)).toBe(true);
    }
    const back = read.flatMap((b) =>
      b
        .toString('utf8')
        .split('\n')
        .map((l) => JSON.parse(l)),
    );
    expect(back).toEqual(lines.map((l) => JSON.parse(l)));
  });

  it('writes nothing when no row is buffered, and starts over after close', () => {
    const out = new JsonlFiles(dir, 'w1-companies', 10);
    expect(out.flush()).toBeNull();
    expect(out.close()).toBeNull();
    out.add('{"a":1}');
    const f = out.close();
    expect(readFileSync(f!, 'utf8')).toBe('{"a":1}');
    out.add('{"b":"é"}');
    out.add('{"c":2}');
    const g = out.flush();
    expect(g).not.toBe(f);
    expect(readFileSync(g!, 'utf8')).toBe('{"b":"é"}\n{"c":2}');
  });
});
