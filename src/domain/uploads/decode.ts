import { isUtf8 } from 'node:buffer';

/**
 * The bytes of an uploaded spreadsheet as text. Accepted: UTF-8 with or without a byte-order mark, and
 * Windows-1252 (what spreadsheet programs on Windows write as "CSV"). A file that is valid UTF-8 is UTF-8; one with
 * no valid multi-byte UTF-8 sequence at all is Windows-1252; one holding both valid multi-byte UTF-8 and bytes that
 * are not UTF-8 mixes the two (sheets pasted together) and is refused, naming its first lines that are not UTF-8,
 * rather than read whole as Windows-1252 with its UTF-8 text garbled. Anything else is refused with a message that
 * says what the file looks like and how to save it, so nothing is charged for a file read wrongly.
 */
export type Decoded =
  | { ok: true; text: string; encoding: Encoding }
  | { ok: false; reason: 'empty' | 'not_csv' | 'encoding'; message: string };

type Encoding = 'utf-8' | 'utf-8-bom' | 'windows-1252';

/**
 * The same reading with the sheet's text as UTF-8 bytes: a UTF-8 file's own bytes (a view without its byte-order
 * mark; no string is made of it), a Windows-1252 file's text encoded.
 */
export type DecodedBytes =
  | { ok: true; utf8: Uint8Array; encoding: Encoding }
  | { ok: false; reason: 'empty' | 'not_csv' | 'encoding'; message: string };

const SAVE_AS = 'Save the sheet as "CSV UTF-8 (comma delimited)" and upload that file.';

/**
 * Windows-1252 bytes 0x80-0x9F (the rest equals Latin-1); 0 marks the five bytes with no character. Written out here
 * because Node 20's TextDecoder('windows-1252') decodes them as Latin-1 control characters.
 */
const CP1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0, 0,
  0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

/** Windows-1252 text, or null when a byte has no character in it. */
function decodeCp1252(bytes: Uint8Array): string | null {
  const parts: string[] = [];
  for (let i = 0; i < bytes.length; i += 8192) {
    const codes: number[] = [];
    for (const b of bytes.subarray(i, i + 8192)) {
      const c = b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80]! : b;
      if (c === 0) return null;
      codes.push(c);
    }
    parts.push(String.fromCharCode(...codes));
  }
  return parts.join('');
}

/** Lines named in a mixed-encoding refusal. */
const LINES_NAMED = 5;

/** Length of the valid UTF-8 multi-byte sequence starting at `i` (WHATWG ranges), or 0 when there is none. */
function utf8SequenceAt(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  const cont = (j: number, lo = 0x80, hi = 0xbf) => {
    const c = bytes[i + j];
    return c !== undefined && c >= lo && c <= hi;
  };
  if (b >= 0xc2 && b <= 0xdf) return cont(1) ? 2 : 0;
  if (b >= 0xe0 && b <= 0xef) {
    const lo = b === 0xe0 ? 0xa0 : 0x80;
    const hi = b === 0xed ? 0x9f : 0xbf;
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (b >= 0xf0 && b <= 0xf4) {
    const lo = b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xf4 ? 0x8f : 0xbf;
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/**
 * One pass over bytes that are not valid UTF-8: whether they hold any valid multi-byte UTF-8 sequence, and the first
 * lines (1-based; LF, CRLF or a lone CR ends a line) holding a byte that is not UTF-8, with how many such lines.
 */
function utf8Survey(bytes: Uint8Array): { multiByte: boolean; badLines: number[]; badLineCount: number } {
  let multiByte = false;
  const badLines: number[] = [];
  let badLineCount = 0;
  let line = 1;
  let lastBad = 0;
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      if (b === 0x0a || (b === 0x0d && bytes[i + 1] !== 0x0a)) line++;
      i++;
      continue;
    }
    const n = utf8SequenceAt(bytes, i);
    if (n > 0) {
      multiByte = true;
      i += n;
      continue;
    }
    if (lastBad !== line) {
      lastBad = line;
      badLineCount++;
      if (badLines.length < LINES_NAMED) badLines.push(line);
    }
    i++;
  }
  return { multiByte, badLines, badLineCount };
}

/** "line 3" / "lines 3, 7" / "lines 3, 7, 9, 12, 15 and 4 more". */
function linesText(badLines: number[], badLineCount: number): string {
  const more = badLineCount - badLines.length;
  return `line${badLineCount > 1 ? 's' : ''} ${badLines.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

export function decodeUpload(bytes: Uint8Array): Decoded {
  const res = readUpload(bytes);
  if (!res.ok) return res;
  // The view has no byte-order mark left to drop (a second one is text).
  const text = res.text ?? new TextDecoder('utf-8', { ignoreBOM: true }).decode(res.utf8);
  return { ok: true, text, encoding: res.encoding };
}

export function decodeUploadBytes(bytes: Uint8Array): DecodedBytes {
  const res = readUpload(bytes);
  if (!res.ok) return res;
  return { ok: true, utf8: res.text === undefined ? res.utf8 : Buffer.from(res.text, 'utf8'), encoding: res.encoding };
}

/** A UTF-8 view of the bytes (a UTF-8 file) or the decoded text (Windows-1252), or the refusal. */
function readUpload(
  bytes: Uint8Array,
):
  | { ok: true; utf8: Uint8Array; text?: undefined; encoding: Encoding }
  | { ok: true; utf8?: undefined; text: string; encoding: Encoding }
  | { ok: false; reason: 'empty' | 'not_csv' | 'encoding'; message: string } {
  if (bytes.length === 0 || bytes.every((b) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09))
    return { ok: false, reason: 'empty', message: 'The file is empty.' };
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x50, 0x4b, 0x03, 0x04))
    return {
      ok: false,
      reason: 'not_csv',
      message: `The file is an Excel workbook or another zip archive, not CSV. ${SAVE_AS}`,
    };
  if (starts(0x25, 0x50, 0x44, 0x46))
    return { ok: false, reason: 'not_csv', message: `The file is a PDF, not CSV. ${SAVE_AS}` };
  if (starts(0xd0, 0xcf, 0x11, 0xe0))
    return { ok: false, reason: 'not_csv', message: `The file is an old Excel (.xls) workbook, not CSV. ${SAVE_AS}` };
  if (starts(0xff, 0xfe) || starts(0xfe, 0xff))
    return {
      ok: false,
      reason: 'encoding',
      message: `The file is UTF-16 text; only UTF-8 and Windows-1252 are read. ${SAVE_AS}`,
    };
  if (bytes.includes(0))
    return { ok: false, reason: 'not_csv', message: `The file holds binary data, not CSV text. ${SAVE_AS}` };
  const bom = starts(0xef, 0xbb, 0xbf);
  // Valid UTF-8 (the WHATWG decoder's fatal rule) is checked without decoding it.
  if (isUtf8(bytes)) {
    const utf8 = bytes.subarray(bom ? 3 : 0);
    if (startsAsHtml(utf8)) return html();
    return { ok: true, utf8, encoding: bom ? 'utf-8-bom' : 'utf-8' };
  }
  const survey = utf8Survey(bytes);
  const lines = linesText(survey.badLines, survey.badLineCount);
  if (bom)
    return {
      ok: false,
      reason: 'encoding',
      message: `The file starts as UTF-8 but holds invalid UTF-8 bytes (${lines}). ${SAVE_AS}`,
    };
  if (survey.multiByte)
    return {
      ok: false,
      reason: 'encoding',
      message: `The file mixes encodings: ${lines} ${survey.badLineCount > 1 ? 'are' : 'is'} not UTF-8 while other lines are. ${SAVE_AS}`,
    };
  const cp1252 = decodeCp1252(bytes);
  if (cp1252 === null)
    return { ok: false, reason: 'encoding', message: `The file is neither UTF-8 nor Windows-1252 text. ${SAVE_AS}` };
  if (/^\s*</.test(cp1252)) return html();
  return { ok: true, text: cp1252, encoding: 'windows-1252' };
}

const html = () => ({
  ok: false as const,
  reason: 'not_csv' as const,
  message: 'The file is a web page (HTML), not CSV. For an online sheet, use its published CSV export link.',
});

/** Whether UTF-8 text starts, past any white space (JavaScript's `\s`), with `<`: decoded a growing prefix at a time. */
function startsAsHtml(utf8: Uint8Array): boolean {
  for (let n = 1024; ; n *= 2) {
    const prefix = new TextDecoder('utf-8', { ignoreBOM: true }).decode(utf8.subarray(0, n));
    const first = /\S/.exec(prefix);
    // A character cut by the prefix's end decodes as U+FFFD: read more before deciding on it.
    if (first && (n >= utf8.length || first.index < prefix.length - 4)) return prefix[first.index] === '<';
    if (n >= utf8.length) return false;
  }
}
