import {
  emailDomain,
  networkProfileUrl,
  normalizePhone,
  parseEmail,
  parseNetworkUrl,
} from '../../src/domain/normalize/index.js';
/** A normalized person: every contact column except the employer's copied fields and sort_key. */
import { wordsKey } from '../../src/domain/text/words.js';
import type { SourcePerson, SourceRole } from '../dump-format.js';
import type { EmployerRef } from './company-row.js';
import { computeProfileSignals } from './profile-signals.js';
import {
  classify,
  companyNameNorm,
  countryLabel,
  countrySlug,
  day,
  domainOf,
  emailStatus,
  list,
  lowerList,
  month,
  text,
} from './values.js';

export type PersonRow = Record<string, unknown>;

export interface PersonContext {
  companies: ReadonlyMap<string, EmployerRef>;
  networkHost: string;
  asOf: Date;
}

/** One current role resolved against the companies of the release. */
interface Role {
  title: string | null;
  company: string | null;
  companyId: string | null;
  domain: string | null;
  nameNorm: string | null;
  start: string | null;
  description: string | null;
  seniority: string;
  fn: string;
  founder: boolean;
  isPublic: boolean;
}

function resolveRole(r: SourceRole, companies: ReadonlyMap<string, EmployerRef>): Role {
  // An unknown company id is not an error: the role keeps the raw name and domain the source gave.
  const employer = r.company_id ? companies.get(r.company_id) : undefined;
  const rawName = text(r.company_name);
  const title = text(r.title);
  const c = classify(title ?? '');
  return {
    title,
    company: employer?.name ?? rawName,
    companyId: employer?.id ?? null,
    domain: employer?.domain ?? (r.company_domain ? domainOf(r.company_domain) : null),
    nameNorm: employer?.nameNorm ?? (rawName ? companyNameNorm(rawName) : null),
    start: day(r.start_date),
    description: text(r.description),
    seniority: c.seniority,
    fn: c.function,
    founder: c.founder,
    isPublic: employer?.isPublic ?? false,
  };
}

/** Current roles, main first: the one marked primary, else the first listed. */
function orderedRoles(p: SourcePerson, companies: ReadonlyMap<string, EmployerRef>): Role[] {
  const roles = p.roles;
  if (!roles || roles.length === 0) return [];
  let main = 0;
  for (let i = 0; i < roles.length; i++) {
    if (roles[i]!.is_primary === true) {
      main = i;
      break;
    }
  }
  const out = [resolveRole(roles[main]!, companies)];
  for (let i = 0; i < roles.length; i++) if (i !== main) out.push(resolveRole(roles[i]!, companies));
  return out;
}

/** Distinct non-null values of `pick` over roles, or null; most people have one role, so no allocation then. */
function distinct<T>(items: readonly T[], pick: (x: T) => string | null): string[] | null {
  if (items.length === 0) return null;
  const s = new Set<string>();
  for (const x of items) {
    const v = pick(x);
    if (v !== null) s.add(v);
  }
  return s.size ? [...s] : null;
}

function phone(v: string | null | undefined): string | null {
  return typeof v === 'string' && v.trim() ? (normalizePhone(v) ?? null) : null;
}

function fullName(p: SourcePerson): { name: string; first: string | null; last: string | null } {
  const first = text(p.first_name);
  const last = text(p.last_name);
  const full = text(p.full_name)?.replace(/\s+/g, ' ') ?? [first, last].filter(Boolean).join(' ');
  if (first || last) return { name: full, first, last };
  // Split a lone full name so name-based enrichment still has first and last names.
  const sp = full.indexOf(' ');
  return sp < 0
    ? { name: full, first: full, last: null }
    : { name: full, first: full.slice(0, sp), last: full.slice(sp + 1) };
}

function location(
  city: string | null,
  state: string | null,
  country: string | null,
  rawCountry: string | null,
): string | null {
  const parts = [city, state, (country && countryLabel(country)) ?? rawCountry].filter((x): x is string => !!x);
  return parts.length ? parts.join(', ') : null;
}

export function personRow(p: SourcePerson, ctx: PersonContext): PersonRow {
  const roles = orderedRoles(p, ctx.companies);
  const main: Role | undefined = roles[0];
  const others = roles.slice(1);

  const email = p.email ? (parseEmail(p.email) ?? null) : null;
  const mobile = phone(p.mobile_phone);
  const direct = phone(p.direct_phone);
  const country = p.country ? countrySlug(p.country) : null;
  const city = text(p.city);
  const state = text(p.state);
  const net = p.profile_url ? parseNetworkUrl(p.profile_url, ctx.networkHost) : undefined;
  const slug = net?.kind === 'person' ? net.slug : null;
  const education = (p.education ?? []).filter((e) => text(e.school) !== null);
  const jl = p.job_location ?? null;
  const n = fullName(p);

  return {
    id: p.person_id,
    name: n.name,
    first_name: n.first,
    last_name: n.last,
    title: main?.title ?? null,
    company: main?.company ?? null,
    company_domain: main?.domain ?? null,
    work_email: email,
    country,
    seniority: main?.seniority ?? 'unknown',
    last_updated: month(p.updated_at),
    mobile_phone: mobile,
    direct_phone: direct,
    has_phone: mobile !== null || direct !== null,
    function: main?.fn ?? 'other',
    location: location(city, state, country, text(p.country)),
    email_status: email ? emailStatus(p.email_status) : null,
    network: slug ? networkProfileUrl('person', slug, ctx.networkHost) : null,
    has_work_email: email !== null,
    email_verified_month: email ? month(p.email_verified_at) : null,
    role_since: main?.start ?? null,
    signals: computeProfileSignals(
      {
        mainStart: main?.start ?? null,
        founder: roles.some((r) => r.founder),
        atPublicCompany: main?.isPublic ?? false,
      },
      ctx.asOf,
    ),
    skills: lowerList(p.skills),
    languages: list(p.languages),
    personas: list(p.personas),
    experience: roles.length
      ? roles.map((r, i) => ({
          title: r.title,
          company: r.company,
          company_id: r.companyId,
          domain: r.domain,
          start_date: r.start,
          is_main: i === 0,
        }))
      : null,
    education: education.length
      ? education.map((e) => ({
          school: e.school.trim(),
          degree: text(e.degree),
          field: text(e.field),
          end_year: e.end_year ?? null,
        }))
      : null,
    certifications: p.certifications?.length
      ? p.certifications.map((c) => ({ name: text(c.name), authority: text(c.authority), year: c.year ?? null }))
      : null,
    social: socialLinks(p.social),
    headline: text(p.headline),
    person_description: text(p.summary),
    job_description: main?.description ?? null,
    state,
    city,
    job_location_country: jl?.country ? countrySlug(jl.country) : null,
    job_location_state: text(jl?.state),
    job_location_city: text(jl?.city),
    last_refreshed: day(p.refreshed_at),
    company_id: main?.companyId ?? null,
    network_slug: slug,
    company_name_norm: main?.nameNorm ?? null,
    email_domain: email ? emailDomain(email) : null,
    schools: distinct(education, (e) => e.school.trim()),
    secondary_titles: distinct(others, (r) => r.title),
    title_words: wordsKey(main?.title),
    secondary_title_words: distinct(others, (r) => wordsKey(r.title)),
    secondary_domains: distinct(others, (r) => r.domain),
    secondary_company_names: distinct(others, (r) => r.nameNorm),
    secondary_company_ids: distinct(others, (r) => r.companyId),
    secondary_functions: distinct(others, (r) => (r.title ? r.fn : null)),
    secondary_seniorities: distinct(others, (r) => (r.title ? r.seniority : null)),
  };
}

/**
 * Social links with a value, in key order: a null link is an absent one (a Parquet dump writes every key of its
 * struct, null where the row has none), so the same person stores the same record from any dump format.
 */
function socialLinks(social: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!social) return null;
  // Keys in one order too: a Parquet struct keeps its schema's order, not the row's.
  const kept = Object.fromEntries(
    Object.entries(social)
      .filter(([, v]) => v !== null && v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return Object.keys(kept).length ? kept : null;
}
