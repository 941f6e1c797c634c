import { csvRecord, neutralizeCell } from '../../src/domain/text/csv-cell.js';
import { decodeUpload } from '../../src/domain/uploads/decode.js';
import { guessMapping, mappingIndexes } from '../../src/domain/uploads/mapping.js';
import { MAX_COLUMNS, parseSheet } from '../../src/domain/uploads/parse-csv.js';
import { canMatch, rowInput } from '../../src/domain/uploads/row-input.js';

const HOST = 'network.com';
const bytes = (...b: number[]) => Uint8Array.from(b);

describe('decodeUpload', () => {
  it('reads UTF-8 with and without BOM and Windows-1252', () => {
    expect(decodeUpload(new TextEncoder().encode('Zoë'))).toEqual({ ok: true, text: 'Zoë', encoding: 'utf-8' });
    expect(decodeUpload(bytes(0xef, 0xbb, 0xbf, 0x41))).toEqual({ ok: true, text: 'A', encoding: 'utf-8-bom' });
    expect(decodeUpload(bytes(0x5a, 0x6f, 0xeb, 0x80))).toEqual({ ok: true, text: 'Zoë€', encoding: 'windows-1252' });
    // Windows-1252's own characters in 0x80-0x9F (curly quotes, dashes), not Latin-1 control characters.
    expect(decodeUpload(bytes(0x93, 0x41, 0x94, 0x96, 0x9f))).toMatchObject({ text: '\u201cA\u201d\u2013\u0178' });
  });
  it.each([
    ['empty', bytes()],
    ['empty', bytes(0x20, 0x0d, 0x0a)],
    ['not_csv', bytes(0x50, 0x4b, 0x03, 0x04)],
    ['not_csv', bytes(0xd0, 0xcf, 0x11, 0xe0)],
    ['encoding', bytes(0xfe, 0xff, 0x00, 0x41)],
    ['encoding', bytes(0x41, 0x8d)],
    ['not_csv', new TextEncoder().encode('  <html>')],
  ])('refuses as %s', (reason, b) => {
    expect(decodeUpload(b)).toMatchObject({ ok: false, reason });
  });
});

describe('parseSheet', () => {
  it('reads RFC 4180 with quotes, doubled quotes, embedded line breaks, CRLF / LF / CR', () => {
    const res = parseSheet('a,b\r\n"x, y","say ""hi"""\n"multi\nline",z\rlast,\r\n\r\n', 100);
    expect(res).toEqual({
      ok: true,
      sheet: {
        headers: ['a', 'b'],
        rows: [
          ['x, y', 'say "hi"'],
          ['multi\nline', 'z'],
          ['last', ''],
        ],
        delimiter: ',',
      },
    });
  });
  it('picks ; or tab from the header line, names blank and extra columns', () => {
    const res = parseSheet('Name;;Email\nAnn;x;a@b.co;extra\n', 100);
    expect(res.ok && res.sheet.headers).toEqual(['Name', 'Column 2', 'Email', 'Column 4']);
    expect(res.ok && res.sheet.rows).toEqual([['Ann', 'x', 'a@b.co', 'extra']]);
    expect(parseSheet('a\tb\n1\t2\n', 100)).toMatchObject({ ok: true, sheet: { delimiter: '\t' } });
  });
  it('stops past the record limit and refuses broken quoting', () => {
    expect(parseSheet('h\n1\n2\n3\n', 3)).toMatchObject({ ok: false, over: true });
    expect(parseSheet('h\n1\n2\n', 3)).toMatchObject({ ok: true });
    expect(parseSheet('h\n"open\n', 10)).toMatchObject({ ok: false });
    expect(parseSheet('h\n"closed"tail\n', 10)).toMatchObject({ ok: false });
  });
  it('refuses a record wider than MAX_COLUMNS before padding every row to it', () => {
    // One row of 2 M commas among 20,000 short ones: padded, that would be 40 billion cells.
    const bomb = `email\n${','.repeat(2_000_000)}\n${'a@b.co\n'.repeat(20_000)}`;
    const res = parseSheet(bomb, 100_000);
    expect(res).toMatchObject({ ok: false });
    expect(!res.ok && res.message).toMatch(new RegExp(`more than ${MAX_COLUMNS} columns`));
    const wide = `${Array.from({ length: MAX_COLUMNS }, (_, i) => `c${i}`).join(',')}\n`;
    expect(parseSheet(wide, 10)).toMatchObject({ ok: true });
  });
});

describe('guessMapping', () => {
  it('guesses from headers', () => {
    const headers = [
      'First Name',
      'Surname',
      'Full name',
      'E-mail Address',
      'Mobile phone',
      'LinkedIn URL',
      'Organisation',
      'Website',
    ];
    expect(guessMapping(headers, [], HOST)).toEqual({
      first_name: 'First Name',
      last_name: 'Surname',
      full_name: 'Full name',
      email: 'E-mail Address',
      phone: 'Mobile phone',
      profile_url: 'LinkedIn URL',
      company_name: 'Organisation',
      domain: 'Website',
    });
  });
  it('guesses identifiers from values when no header tells', () => {
    const m = guessMapping(['A', 'B', 'C'], [['x', 'ann@acme.com', `https://${HOST}/in/ann`]], HOST);
    expect(m).toMatchObject({ email: 'B', profile_url: 'C', phone: null });
  });
  it('checks a sent mapping against the headers', () => {
    expect(mappingIndexes(['a', 'b'], { email: 'b', phone: null })).toMatchObject({ ok: true, indexes: { email: 1 } });
    expect(mappingIndexes(['a'], { email: 'z' })).toMatchObject({ ok: false });
    expect(mappingIndexes(['a'], { age: 'a' })).toMatchObject({ ok: false });
  });
});

describe('rowInput', () => {
  const idx = { email: 0, profile_url: 1, phone: 2, domain: 3 };
  it('takes the first identifier that reads as one: email, then profile URL, then phone', () => {
    expect(rowInput(['nope', `https://${HOST}/in/ann`, '+14155550100', ''], idx, HOST)).toMatchObject({
      kind: 'input',
      input: `https://${HOST}/in/ann`,
      classified: { kind: 'network', value: 'ann' },
      domain: null,
    });
    expect(rowInput(['', '', '', ''], idx, HOST)).toEqual({ kind: 'missing' });
    const invalid = rowInput(['nope', '', '', ''], idx, HOST);
    expect(invalid).toMatchObject({ kind: 'input', input: 'nope', classified: { kind: 'invalid' } });
    expect(canMatch(invalid)).toBe(false);
  });
  it('uses the domain cell as company_domain; one without a dot is a bad domain', () => {
    expect(rowInput(['a@acme.com', '', '', 'https://www.Acme.com/'], idx, HOST)).toMatchObject({ domain: 'acme.com' });
    expect(rowInput(['a@acme.com', '', '', 'Acme'], idx, HOST)).toMatchObject({ kind: 'bad_domain' });
  });
});

describe('CSV cells', () => {
  it.each([
    ['=1+2', "'=1+2"],
    ['  +1 415', "'  +1 415"],
    ['-x', "'-x"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['a; =b', "a; '=b"],
    ['\u00a0=1+1', "'\u00a0=1+1"],
    ['\ufeff@x', "'\ufeff@x"],
    ['a;\u3000-b', "a;\u3000'-b"],
    ['plain', 'plain'],
    // a cell that is exactly a plain number cannot start a formula: written as it is
    ['+12124435204', '+12124435204'],
    ['-12.5', '-12.5'],
    ['+7', '+7'],
    // anything more is a formula
    ['+1+1', "'+1+1"],
    ['-2+3', "'-2+3"],
    ['=1+1', "'=1+1"],
    ['=HYPERLINK("http://evil.example","x")', `'=HYPERLINK("http://evil.example","x")`],
    ['+1 212-443-5204', "'+1 212-443-5204"],
    [' -12.5', "' -12.5"],
    ['-12.5 ', "'-12.5 "],
    ['-1e5', "'-1e5"],
    ['+', "'+"],
    ['-.5', "'-.5"],
    ['\t-12.5', "'\t-12.5"],
    ['\r+12124435204', "'\r+12124435204"],
    // after a `;`: a part that is a plain number (past its spaces) stays; others get the quote
    ['a; +12124435204; -3', 'a; +12124435204; -3'],
    ['a;+1;+2;+3', 'a;+1;+2;+3'],
    ['a; +1+1; =x; @y', "a; '+1+1; '=x; '@y"],
    ["a;'+1", "a;'+1"],
    ['+1;+2', "'+1;+2"],
    ['+1;=2', "'+1;'=2"],
  ])('neutralizes %j', (input, want) => {
    expect(neutralizeCell(input)).toBe(want);
  });
  it('quotes every text cell by RFC 4180 (a `;` never splits one) and ends records in CRLF', () => {
    expect(csvRecord(['a,b', 'say "x"', null, 3, true, 'line\nbreak', 'plain', 'a;=3+3'])).toBe(
      `"a,b","say ""x""",,3,true,"line\nbreak","plain","a;'=3+3"\r\n`,
    );
  });
});
