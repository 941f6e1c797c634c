import type { EmployerRef } from './company-row.js';

/**
 * A release's employers as one message to each of the load's worker threads: every field of every employer in one
 * string per field, with end offsets, and a flag byte per employer. A million employer objects were structured-cloned
 * one by one to every worker (12 s for two workers beside a running load); these few strings and arrays are copied
 * whole (5 s, packing and the workers' maps included, in the same conditions).
 */
export interface EmployersMessage {
  count: number;
  text: Record<TextField, string>;
  ends: Record<TextField, Int32Array>;
  /** Per employer: DOMAIN_NULL, NAME_NORM_NULL, PUBLIC. */
  flags: Uint8Array;
}

type TextField = 'id' | 'name' | 'domain' | 'nameNorm';
const FIELDS: readonly TextField[] = ['id', 'name', 'domain', 'nameNorm'];
const DOMAIN_NULL = 1;
const NAME_NORM_NULL = 2;
const PUBLIC = 4;

export function packEmployers(employers: Iterable<EmployerRef>): EmployersMessage {
  const list = [...employers];
  const text = {} as Record<TextField, string>;
  const ends = {} as Record<TextField, Int32Array>;
  for (const f of FIELDS) {
    const values = list.map((e) => e[f] ?? '');
    const end = new Int32Array(list.length);
    let at = 0;
    for (let i = 0; i < values.length; i++) end[i] = at += values[i]!.length;
    text[f] = values.join('');
    ends[f] = end;
  }
  const flags = Uint8Array.from(
    list,
    (e) =>
      (e.domain === null ? DOMAIN_NULL : 0) | (e.nameNorm === null ? NAME_NORM_NULL : 0) | (e.isPublic ? PUBLIC : 0),
  );
  return { count: list.length, text, ends, flags };
}

/** The employers of a message by id, after those of `base` (JSON arrays of employers) where given. */
export function unpackEmployers(m: EmployersMessage, base: readonly string[] = []): Map<string, EmployerRef> {
  const out = new Map<string, EmployerRef>();
  for (const text of base) for (const e of JSON.parse(text) as EmployerRef[]) out.set(e.id, e);
  const field = (f: TextField, i: number): string => m.text[f].slice(i === 0 ? 0 : m.ends[f][i - 1]!, m.ends[f][i]!);
  for (let i = 0; i < m.count; i++) {
    const flags = m.flags[i]!;
    const id = field('id', i);
    out.set(id, {
      id,
      name: field('name', i),
      domain: flags & DOMAIN_NULL ? null : field('domain', i),
      nameNorm: flags & NAME_NORM_NULL ? null : field('nameNorm', i),
      isPublic: (flags & PUBLIC) !== 0,
    });
  }
  return out;
}
