import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { type StateRecord, TransferRefused } from './records.js';

/** The transfer file: JSON lines, one `{"entity": ...}` record per line. */

/** Writes the records as JSON lines into `out` (mode 0600: key hashes). */
export async function writeRecords(
  records: AsyncIterable<StateRecord> | Iterable<StateRecord>,
  out: string,
): Promise<Record<string, number>> {
  const fh = await open(out, 'w', 0o600);
  const counts: Record<string, number> = {};
  try {
    for await (const r of records) {
      await fh.write(`${JSON.stringify(r)}\n`);
      counts[r.entity] = (counts[r.entity] ?? 0) + 1;
    }
  } finally {
    await fh.close();
  }
  return counts;
}

/** The records of a file written by writeRecords (a line that is not a record object is refused). */
export async function* readRecords(file: string): AsyncGenerator<StateRecord> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
  let n = 0;
  for await (const line of lines) {
    n++;
    if (!line.trim()) continue;
    const r = JSON.parse(line) as unknown;
    if (typeof r !== 'object' || r === null || typeof (r as StateRecord).entity !== 'string')
      throw new TransferRefused(`line ${n} is not a state record`);
    yield r as StateRecord;
  }
}
