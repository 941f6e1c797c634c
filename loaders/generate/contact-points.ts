import type { CompanyRef } from './context.js';
import type { Rng } from './rng.js';
import type { SeenSet } from './seen.js';
import type { NamePart } from './vocab/names.js';

const HEX = '0123456789abcdef';

function localPart(pattern: number, first: string, last: string): string {
  switch (pattern) {
    case 1:
      return first[0] + last;
    case 2:
      return first;
    case 3:
      return `${first}_${last}`;
    default:
      return `${first}.${last}`;
  }
}

/**
 * Work email in the employer's pattern (first.last@ mostly), unique across the dump: a taken address
 * falls back to first.last, then to a numbered form, as mail admins do.
 */
export function workEmail(rng: Rng, first: NamePart, last: NamePart, company: CompanyRef, seen: SeenSet): string {
  const f = first.ascii || 'contact',
    l = last.ascii || 'team';
  const candidates = [localPart(company.emailPattern, f, l), `${f}.${l}`, `${f}${l[0]}`];
  let email = '';
  for (const c of candidates) {
    if (seen.add(`${c}@${company.domain}`)) {
      email = `${c}@${company.domain}`;
      break;
    }
  }
  for (let n = 2; !email; n++) {
    const c = `${f}.${l}${n < 10 ? n : rng.range(10, 9999)}@${company.domain}`;
    if (seen.add(c)) email = c;
  }
  // Some sources keep the case people typed; the loader lowercases.
  const c = rng.int(100);
  if (c < 3) {
    const at = email.indexOf('@');
    const lp = email.slice(0, at).replace(/(^|[._])([a-z])/g, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
    return `${lp}@${email[at + 1]!.toUpperCase()}${email.slice(at + 2)}`;
  }
  if (c < 4) return email.toUpperCase();
  return email;
}

/** Network profile slug, unique across the dump except where a duplicate is planted. */
export function profileSlug(rng: Rng, first: NamePart, last: NamePart, seen: SeenSet): string {
  const f = first.ascii || 'member',
    l = last.ascii || 'profile';
  const k = rng.int(100);
  let slug =
    k < 40
      ? `${f}-${l}-${rng.chars(rng.range(6, 9), HEX)}`
      : k < 65
        ? `${f}${l}${rng.digits(rng.range(2, 4))}`
        : k < 85
          ? `${f[0]}${l}${rng.digits(rng.range(1, 3))}`
          : `${f}-${l}`;
  while (!seen.add(slug)) slug = `${f}-${l}-${rng.chars(8, HEX)}`;
  return slug;
}

/** Profile URL as sources store it: mostly canonical, some with a trailing slash or without www. */
export function profileUrl(rng: Rng, host: string, slug: string): string {
  const k = rng.int(100);
  if (k < 88) return `https://www.${host}/in/${slug}`;
  if (k < 95) return `https://www.${host}/in/${slug}/`;
  return `https://${host}/in/${slug}`;
}
