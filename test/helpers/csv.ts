/**
 * A small RFC 4180 reader written for the tests, independent of the service's own CSV code: quoted fields
 * may hold commas, doubled quotes, CR and LF; records end in CRLF (a lone LF is accepted too).
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let i = 0;
  let quoted = false;
  let started = false;
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') {
      quoted = true;
      started = true;
      i++;
    } else if (ch === ',') {
      record.push(field);
      field = '';
      started = true;
      i++;
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      started = false;
      i += 2;
    } else if (ch === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      started = false;
      i++;
    } else {
      field += ch;
      started = true;
      i++;
    }
  }
  if (started || field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}
