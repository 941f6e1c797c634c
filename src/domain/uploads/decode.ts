/**
 * The bytes of an uploaded spreadsheet as text. Accepted: UTF-8 with or without a byte-order mark, and
 * Windows-1252 (what spreadsheet programs on Windows write as "CSV"). Anything else is refused with a message that
 * says what the file looks like and how to save it, so nothing is charged for a file read wrongly.
 */
export type Decoded =
  | { ok: true; text: string; encoding: 'utf-8' | 'utf-8-bom' | 'windows-1252' }
  | { ok: false; reason: 'empty' | 'not_csv' | 'encoding'; message: string };

const SAVE_AS = 'Save the sheet as "CSV UTF-8 (comma delimited)" and upload that file.';

/** Bytes 0x81, 0x8D, 0x8F, 0x90, 0x9D have no character in Windows-1252 (decoders map them to C1 controls). */
const UNDEFINED_1252 = /[\u0081\u008d\u008f\u0090\u009d]/;

export function decodeUpload(bytes: Uint8Array): Decoded {
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
  let text: string;
  let encoding: 'utf-8' | 'utf-8-bom' | 'windows-1252';
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    encoding = bom ? 'utf-8-bom' : 'utf-8';
  } catch {
    if (bom)
      return {
        ok: false,
        reason: 'encoding',
        message: `The file starts as UTF-8 but holds invalid UTF-8 bytes. ${SAVE_AS}`,
      };
    text = new TextDecoder('windows-1252').decode(bytes);
    if (UNDEFINED_1252.test(text))
      return { ok: false, reason: 'encoding', message: `The file is neither UTF-8 nor Windows-1252 text. ${SAVE_AS}` };
    encoding = 'windows-1252';
  }
  if (/^\s*</.test(text))
    return {
      ok: false,
      reason: 'not_csv',
      message: 'The file is a web page (HTML), not CSV. For an online sheet, use its published CSV export link.',
    };
  return { ok: true, text, encoding };
}
