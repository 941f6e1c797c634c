import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { DeltaRefused } from '../../src/engine/release-writer.js';

/**
 * The deletes file of a delta load: one person id per line (`per_…`), or JSON Lines objects with a `person_id`
 * (other keys ignored); blank lines are skipped, `.gz` is read compressed. Any other line refuses the whole delta
 * with its line number, so a half-read list never deletes only some of the people meant.
 */
const PERSON_ID = /^per_\S+$/;

function idOf(line: string): string | null {
  if (!line.startsWith('{')) return PERSON_ID.test(line) ? line : null;
  try {
    const rec = JSON.parse(line) as unknown;
    const id = rec && typeof rec === 'object' ? (rec as Record<string, unknown>).person_id : undefined;
    return typeof id === 'string' && PERSON_ID.test(id) ? id : null;
  } catch {
    return null;
  }
}

export async function readDeletes(file: string): Promise<string[]> {
  const raw = createReadStream(file);
  const lines = createInterface({ input: file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw, crlfDelay: Infinity });
  const ids: string[] = [];
  let n = 0;
  for await (const text of lines) {
    n++;
    const line = text.trim();
    if (!line) continue;
    const id = idOf(line);
    if (id === null) {
      lines.close();
      raw.destroy();
      throw new DeltaRefused(
        `${file} line ${n}: expected a person id (per_…) or a JSON object with a person_id, got ${JSON.stringify(line.slice(0, 80))}`,
      );
    }
    ids.push(id);
  }
  return ids;
}
