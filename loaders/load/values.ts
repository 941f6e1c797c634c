import { foldListValue, listValues, REVENUE_BANDS, SIZE_BANDS } from '../../src/domain/catalog/index.js';
import { classifyTitle } from '../../src/domain/classify/index.js';
import {
  industrySlug,
  normalizeCompanyName,
  normalizeCountry,
  normalizeDomain,
} from '../../src/domain/normalize/index.js';
import { lowerText } from '../../src/domain/text/lower.js';
import { memo } from './memo.js';

/** Small value normalizers shared by the company and person rows; repeated inputs hit a memo. */

export const countrySlug = memo((s: string) => normalizeCountry(s) ?? null);
export const domainOf = memo((s: string) => normalizeDomain(s) ?? null);
export const companyNameNorm = memo((s: string) => normalizeCompanyName(s) || null);
export const industryOf = memo((s: string) => industrySlug(s) ?? null);
/** The classifier keeps its own cache of titles. */
export const classify = classifyTitle;

const countryLabels = new Map(listValues('country').map((v) => [v.slug, v.label]));
export function countryLabel(slug: string): string | undefined {
  return countryLabels.get(slug);
}

/** Trimmed text, or null when absent or blank. */
export function text(v: string | null | undefined): string | null {
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t === '' ? null : t;
}

/** Trimmed, de-duplicated, non-blank values (first spelling wins), or null when none remain. */
export function list(values: readonly string[] | null | undefined, fold?: (s: string) => string): string[] | null {
  if (!values || values.length === 0) return null;
  const seen = new Set<string>();
  for (const v of values) {
    let t = v.trim();
    if (fold) t = fold(t);
    if (t !== '') seen.add(t);
  }
  return seen.size ? [...seen] : null;
}

export function lowerList(values: readonly string[] | null | undefined): string[] | null {
  return list(values, lowerText);
}

const DAY = /^(\d{4})-(\d{2})(?:-(\d{2}))?/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function realDay(v: string): string | null {
  const m = DAY.exec(v.trim());
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = m[3] === undefined ? 1 : Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return null;
  const leap = mo === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (d > DAYS_IN_MONTH[mo - 1]! + (leap ? 1 : 0)) return null;
  return `${m[1]}-${m[2]}-${m[3] ?? '01'}`;
}
// Dates repeat heavily across a dump (start months, update days), and this runs several times per row.
const memoDay = memo(realDay);

/** `YYYY-MM-DD` from `YYYY-MM-DD…` or `YYYY-MM` (first of the month); null when not a real date. */
export function day(v: string | null | undefined): string | null {
  return typeof v === 'string' ? memoDay(v) : null;
}

/** `YYYY-MM` of a date or month; null when not one. */
export function month(v: string | null | undefined): string | null {
  return day(v)?.slice(0, 7) ?? null;
}

const EMAIL_STATUS_EXTRA: Readonly<Record<string, string>> = {
  verified: 'valid',
  deliverable: 'valid',
  undeliverable: 'invalid',
  bounced: 'invalid',
  'accept all': 'catch_all',
  accept_all: 'catch_all',
};

/** Source email status spellings -> `unknown | valid | invalid | catch_all`. */
export function emailStatus(v: string | null | undefined): string {
  const t = text(v);
  if (!t) return 'unknown';
  return foldListValue('email_status', t) ?? EMAIL_STATUS_EXTRA[t.toLowerCase()] ?? 'unknown';
}

/** Funding round type -> slug; any later series (C, D, … Z) is series_c_plus; unknown types are `other`. */
export function fundingRoundType(v: string | null | undefined): string | null {
  const t = text(v);
  if (!t) return null;
  const folded = foldListValue('funding_round_type', t);
  if (folded) return folded;
  if (/^series[\s_-]*[c-z]\b/i.test(t)) return 'series_c_plus';
  return 'other';
}

export function entityType(v: string | null | undefined): string | null {
  const t = text(v);
  return t ? (foldListValue('entity_type', t) ?? null) : null;
}

/** Size band slug of an employee count (SIZE_BANDS); null for no or zero employees. */
export function sizeBand(count: number | null | undefined): string | null {
  if (typeof count !== 'number' || count < 1) return null;
  return SIZE_BANDS.find((b) => count >= b.min && (b.max === null || count <= b.max))?.slug ?? null;
}

/** Revenue range slug of a USD amount (REVENUE_BANDS: min inclusive, max exclusive). */
export function revenueBand(usd: number | null | undefined): string | null {
  if (typeof usd !== 'number' || usd < 0) return null;
  return REVENUE_BANDS.find((b) => usd >= b.min && (b.max === null || usd < b.max))?.slug ?? null;
}

/** A whole number, or null (source counts sometimes arrive as floats). */
export function int(v: number | null | undefined): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : null;
}

export function num(v: number | null | undefined): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function bool(v: boolean | null | undefined): boolean | null {
  return typeof v === 'boolean' ? v : null;
}
