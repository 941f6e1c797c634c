import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * The files of a delta benchmark, cut from full dumps: of every `1 / share` people one changes its title (nine in
 * ten) or is deleted (one in ten), and as many new people as deleted ones are added (copies under new ids); of every
 * `1 / share` companies one changes its size. Deterministic: the same dumps and share give the same delta.
 */
export interface DeltaFiles {
  people: string;
  companies: string;
  deletes: string;
  counts: { changed: number; added: number; deleted: number; companies: number };
}

const write = (out: WriteStream, line: string): Promise<void> =>
  out.write(line) ? Promise.resolve() : new Promise((r) => out.once('drain', () => r()));
const close = (out: WriteStream): Promise<void> => new Promise((r) => out.end(() => r()));

async function* lines(file: string): AsyncGenerator<string> {
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity }))
    if (line.trim()) yield line;
}

export async function cutDelta(
  dumps: { people: string; companies: string },
  dir: string,
  share: number,
): Promise<DeltaFiles> {
  const every = Math.max(1, Math.round(1 / share));
  const files = {
    people: join(dir, 'delta-people.jsonl'),
    companies: join(dir, 'delta-companies.jsonl'),
    deletes: join(dir, 'deletes.txt'),
  };
  const counts = { changed: 0, added: 0, deleted: 0, companies: 0 };
  const people = createWriteStream(files.people);
  const deletes = createWriteStream(files.deletes);
  let i = 0;
  for await (const line of lines(dumps.people)) {
    if (i++ % every !== 0) continue;
    const p = JSON.parse(line) as Record<string, unknown> & {
      person_id: string;
      roles?: Array<Record<string, unknown>>;
    };
    if ((counts.changed + counts.deleted) % 10 === 9) {
      await write(deletes, `${p.person_id}\n`);
      counts.deleted++;
      await write(people, `${JSON.stringify({ ...p, person_id: `per_deltanew${counts.added++}` })}\n`);
      continue;
    }
    const roles = p.roles?.map((r, k) => (k === 0 ? { ...r, title: `Delta ${String(r.title ?? 'Analyst')}` } : r));
    await write(people, `${JSON.stringify({ ...p, ...(roles ? { roles } : {}) })}\n`);
    counts.changed++;
  }
  await close(people);
  await close(deletes);
  const companies = createWriteStream(files.companies);
  let j = 0;
  for await (const line of lines(dumps.companies)) {
    if (j++ % every !== 0) continue;
    const c = JSON.parse(line) as Record<string, unknown>;
    await write(companies, `${JSON.stringify({ ...c, employee_count: Number(c.employee_count ?? 10) * 3 + 1 })}\n`);
    counts.companies++;
  }
  await close(companies);
  return { ...files, counts };
}
