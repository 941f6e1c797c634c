import { decodeUpload } from '../../src/domain/uploads/decode.js';
import { parseSheet } from '../../src/domain/uploads/parse-csv.js';

/**
 * The security review's "mixed encodings" finding: a file mixing UTF-8 and Windows-1252 was read whole as
 * Windows-1252, garbling its UTF-8 text; it is now refused with the lines that are not UTF-8. And an Excel `sep=;`
 * first line was taken as the header; it now sets the delimiter.
 */
const utf8 = (s: string) => [...new TextEncoder().encode(s)];
/** Windows-1252 bytes of Latin-1 text (every character here is below U+0100). */
const cp1252 = (s: string) => [...s].map((c) => c.charCodeAt(0));
const file = (...parts: number[][]) => Uint8Array.from(parts.flat());

describe('decodeUpload: mixed UTF-8 and Windows-1252', () => {
  it('refuses a file mixing the two, naming the lines that are not UTF-8', () => {
    const mixed = file(
      utf8('Email,Name\r\n'),
      utf8('ann@example.com,Zoë\r\n'),
      cp1252('bo@example.com,Zoé\r\n'),
      utf8('cy@example.com,Núñez\r\n'),
      utf8('di@example.com,Di\r\n'),
      utf8('ed@example.com,Ed\r\n'),
      cp1252('fa@example.com,Müller\r\n'),
    );
    const res = decodeUpload(mixed);
    expect(res).toMatchObject({ ok: false, reason: 'encoding' });
    expect(!res.ok && res.message).toMatch(/lines 3, 7 are not UTF-8 while other lines are/);
    expect(!res.ok && res.message).toMatch(/UTF-8/);
  });

  it('names one line, the first five and how many more; LF and lone CR end lines too', () => {
    const one = decodeUpload(file(utf8('Name\nZoë\n'), cp1252('Zoé\n')));
    expect(!one.ok && one.message).toMatch(/line 3 is not UTF-8/);
    const cr = decodeUpload(file(utf8('Name\rZoë\r'), cp1252('Zoé\r')));
    expect(!cr.ok && cr.message).toMatch(/line 3 is not UTF-8/);
    const many = decodeUpload(file(utf8('Name\r\nZoë\r\n'), ...Array.from({ length: 8 }, () => cp1252('Zoé\r\n'))));
    expect(!many.ok && many.message).toMatch(/lines 3, 4, 5, 6, 7 and 3 more are not UTF-8/);
  });

  it('a BOM then bytes that are not UTF-8 is refused with their lines', () => {
    const res = decodeUpload(file([0xef, 0xbb, 0xbf], utf8('Name\r\nAnn\r\n'), cp1252('Zoé\r\n')));
    expect(res).toMatchObject({ ok: false, reason: 'encoding' });
    expect(!res.ok && res.message).toMatch(/invalid UTF-8 bytes \(line 3\)/);
  });

  it('reads pure UTF-8 and pure Windows-1252 as before', () => {
    expect(decodeUpload(file(utf8('Name\r\nZoë\r\nŁukasz €\r\n')))).toEqual({
      ok: true,
      text: 'Name\r\nZoë\r\nŁukasz €\r\n',
      encoding: 'utf-8',
    });
    // é, ü and the euro sign (0x80) in Windows-1252: no valid multi-byte UTF-8 anywhere.
    expect(decodeUpload(file(cp1252('Name\r\nZoé\r\nMüller\r\n'), [0x80]))).toEqual({
      ok: true,
      text: 'Name\r\nZoé\r\nMüller\r\n€',
      encoding: 'windows-1252',
    });
  });
});

describe('parseSheet: Excel sep= first line', () => {
  it('sep=; sets the delimiter and is not the header; cells keep their commas', () => {
    const res = parseSheet('sep=;\r\nName;Email;Address\r\nLee, Ann;ann@example.com;1, Main St\r\n', 100);
    expect(res).toEqual({
      ok: true,
      sheet: {
        headers: ['Name', 'Email', 'Address'],
        rows: [['Lee, Ann', 'ann@example.com', '1, Main St']],
        delimiter: ';',
      },
    });
  });

  it('wins over the header count, after a BOM, with LF, quoted or padded; tab, pipe and comma too', () => {
    // The header holds more commas than semicolons: without sep= it would be read as comma-delimited.
    expect(parseSheet('\uFEFFsep=;\nA,B,C;D\nx,y;z\n', 100)).toMatchObject({
      ok: true,
      sheet: { headers: ['A,B,C', 'D'], rows: [['x,y', 'z']], delimiter: ';' },
    });
    expect(parseSheet('"sep=;";;\r\nA;B\r\n1;2\r\n', 100)).toMatchObject({ sheet: { headers: ['A', 'B'] } });
    expect(parseSheet('SEP=|\r\nA|B\r\n1,5|2\r\n', 100)).toMatchObject({
      sheet: { headers: ['A', 'B'], rows: [['1,5', '2']], delimiter: '|' },
    });
    expect(parseSheet('sep=\t\r\nA\tB\r\n1;2\t3\r\n', 100)).toMatchObject({
      sheet: { headers: ['A', 'B'], rows: [['1;2', '3']], delimiter: '\t' },
    });
    expect(parseSheet('sep=,\r\nA;B,C\r\n1;2,3\r\n', 100)).toMatchObject({
      sheet: { headers: ['A;B', 'C'], rows: [['1;2', '3']], delimiter: ',' },
    });
  });

  it('counts lines from the sep= line and does not count it as a record', () => {
    expect(parseSheet('sep=;\nh\n1\n2\n', 3)).toMatchObject({ ok: true });
    expect(parseSheet('sep=;\nh\n"x"y\n', 10)).toMatchObject({ ok: false, message: expect.stringMatching(/^Line 3:/) });
    expect(parseSheet('sep=;\r\n', 10)).toMatchObject({ ok: false, message: 'The file is empty.' });
  });
});
