import type { SourcePerson } from '../dump-format.js';
import { distinct } from './distinct.js';
import type { Rng } from './rng.js';
import { CERTIFICATIONS, DEGREES, FIELDS, GLOBAL_SCHOOLS, SCHOOLS_BY_COUNTRY } from './vocab/education.js';
import type { CountryGeo } from './vocab/geo.js';
import {
  GENERIC_PERSONAS,
  HEADLINE_SEPARATORS,
  JOB_DESCRIPTION_OBJECTS,
  JOB_DESCRIPTION_VERBS,
  LEADER_PERSONAS,
  PERSONAS_BY_FUNCTION,
  SECOND_LANGUAGES,
  SUMMARY_CLOSERS,
  SUMMARY_OPENERS,
} from './vocab/profile.js';
import { COMMON_SKILLS, FUNCTION_SKILLS } from './vocab/skills.js';
import { type Level, REGION_QUALIFIERS } from './vocab/title-parts.js';
import { Weighted } from './weighted.js';

const DEGREE = new Weighted(DEGREES);
const SECOND = new Weighted(SECOND_LANGUAGES);
const LEADERS = new Set<Level>(['c_level', 'vp', 'director', 'founder_or_partner']);

/** Skills of the function plus common ones; a share arrives lower-case, as some sources send them. */
export function skills(rng: Rng, fn: string): string[] {
  const own = FUNCTION_SKILLS[fn] ?? COMMON_SKILLS;
  const list = distinct(rng.range(3, 12), () => (rng.chance(0.7) ? rng.pick(own) : rng.pick(COMMON_SKILLS)));
  return rng.chance(0.12) ? list.map((s) => s.toLowerCase()) : list;
}

export function languages(rng: Rng, geo: CountryGeo | undefined): string[] {
  const own = geo?.profile?.languages ?? ['English'];
  const out = [own[0]!];
  if (own.length > 1 && rng.chance(0.5)) out.push(rng.pick(own));
  if (rng.chance(0.6)) out.push(SECOND.pick(rng));
  if (rng.chance(0.15)) out.push(SECOND.pick(rng));
  return [...new Set(out)];
}

export function personas(rng: Rng, fn: string, level: Level): string[] {
  const out = [rng.pick(PERSONAS_BY_FUNCTION[fn] ?? GENERIC_PERSONAS)];
  if (LEADERS.has(level)) out.push(rng.pick(LEADER_PERSONAS));
  else if (rng.chance(0.4)) out.push(rng.pick(GENERIC_PERSONAS));
  return [...new Set(out)];
}

export function certifications(rng: Rng, asOfYear: number): NonNullable<SourcePerson['certifications']> {
  const n = rng.chance(0.7) ? 1 : rng.range(2, 3);
  const out: NonNullable<SourcePerson['certifications']> = [];
  for (let i = 0; i < n; i++) {
    const [name, authority] = rng.pick(CERTIFICATIONS);
    if (out.some((c) => c.name === name)) continue;
    out.push({
      name,
      authority: rng.chance(0.9) ? authority : undefined,
      year: rng.chance(0.7) ? asOfYear - rng.int(12) : undefined,
    });
  }
  return out;
}

/** Schools of the person's country mostly; the last degree ends when the career starts. */
export function education(
  rng: Rng,
  country: string | undefined,
  careerStartYear: number,
): NonNullable<SourcePerson['education']> {
  const local = (country && SCHOOLS_BY_COUNTRY[country]) || SCHOOLS_BY_COUNTRY.us!;
  const n = rng.chance(0.6) ? 1 : rng.chance(0.8) ? 2 : 3;
  const out: NonNullable<SourcePerson['education']> = [];
  let end = careerStartYear - rng.int(2);
  for (let i = 0; i < n; i++) {
    const school = rng.chance(0.75)
      ? rng.pick(local)
      : rng.chance(0.5)
        ? rng.pick(SCHOOLS_BY_COUNTRY.us!)
        : rng.pick(GLOBAL_SCHOOLS);
    out.push({
      school,
      degree: rng.chance(0.85) ? DEGREE.pick(rng) : undefined,
      field: rng.chance(0.85) ? rng.pick(FIELDS) : undefined,
      end_year: rng.chance(0.8) ? end : undefined,
    });
    end -= rng.range(2, 5);
  }
  return out;
}

export function social(rng: Rng, handle: string, fn: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (rng.chance(0.7)) out.twitter = rng.chance(0.6) ? `https://twitter.com/${handle}` : `https://x.com/${handle}`;
  if (fn === 'engineering' ? rng.chance(0.6) : rng.chance(0.08)) out.github = `https://github.com/${handle}`;
  if (rng.chance(0.15)) out.facebook = `https://www.facebook.com/${handle}`;
  if (rng.chance(0.12) || Object.keys(out).length === 0)
    out.website = `https://${handle}.${rng.pick(['com', 'dev', 'me', 'io'])}`;
  return out;
}

export function headline(rng: Rng, title: string, company: string | undefined, skillList: readonly string[]): string {
  const k = rng.int(100);
  if (company && k < 55) return `${title}${rng.pick(HEADLINE_SEPARATORS)}${company}`;
  if (skillList.length >= 2 && k < 80) return `${title} | ${skillList[0]} | ${skillList[1]}`;
  if (company && k < 90)
    return (
      `${title} @ ${company} | ${rng.pick(SUMMARY_OPENERS)} ` +
      `${rng.pick(skillList.length ? skillList : ['growth']).toLowerCase()}`
    );
  return title;
}

export function summary(rng: Rng, skillList: readonly string[], city: string | undefined): string {
  const topics = skillList.length >= 3 ? skillList : ['strategy', 'operations', 'people'];
  const closer = rng.pick(SUMMARY_CLOSERS).replace('{city}', city ?? 'Europe');
  return (
    `${rng.pick(SUMMARY_OPENERS)} ${topics[0]!.toLowerCase()}, ${topics[1]!.toLowerCase()} and ` +
    `${topics[2]!.toLowerCase()}. ${closer}`
  );
}

export function jobDescription(rng: Rng, area: string): string {
  const object = rng
    .pick(JOB_DESCRIPTION_OBJECTS)
    .replace('{n}', String(rng.range(3, 40)))
    .replace('{area}', area)
    .replace('{region}', rng.pick(REGION_QUALIFIERS));
  return `${rng.pick(JOB_DESCRIPTION_VERBS)} ${object}.`;
}
