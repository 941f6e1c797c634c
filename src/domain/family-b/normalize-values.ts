import { FAMILY_B_EMAIL_STATUSES, FAMILY_B_SENIORITY, type FamilyBParamDef, foldKey } from '../catalog/index.js';
import { CONTINENTS, COUNTRY_CONTINENT, COUNTRY_REGION, REGIONS } from '../catalog/lists/geo.js';
import type { AppError } from '../errors/index.js';
import { normalizeCountry, normalizeDomain, parseEmail, parseNetworkUrl } from '../normalize/index.js';
import { malformed, unknownValue } from '../query/filter-errors.js';
import { HINT_MAX_SLUGS } from '../query/limits.js';
import { quote } from '../query/shape.js';
import { foldValue } from '../query/values.js';

export interface NormalizeContext {
  /** Host of the professional network, for company profile URLs. */
  networkHost: string;
}

type Normalizer = (raw: string, field: string, def: FamilyBParamDef, ctx: NormalizeContext) => string[];

/**
 * The stored value(s) one raw family B value stands for. Most give one value; a region, a continent
 * or a seniority label stands for several.
 */
export function normalizeValue(def: FamilyBParamDef, raw: string, field: string, ctx: NormalizeContext): string[] {
  return NORMALIZERS[def.value](raw, field, def, ctx);
}

const NORMALIZERS: Readonly<Record<FamilyBParamDef['value'], Normalizer>> = {
  text: (raw) => [raw.trim()],
  domain: (raw, field) => [domain(raw, field)],
  email_domain: (raw, field) => [domain(raw.trim().replace(/^@/, ''), field)],
  email: (raw, field) => {
    const email = parseEmail(raw);
    if (email === undefined)
      throw malformed(field, `${quote(raw)} is not an email address.`, 'Send one address such as jane@acme.com.');
    return [email];
  },
  country: (raw, field, def) => {
    const slug = normalizeCountry(raw.trim());
    if (slug === undefined)
      throw unknownFamilyBValue(def, raw, field, 'Send ISO-2 codes or English country names, such as US or Germany.');
    return [slug];
  },
  region: (raw, field, def) => countriesOf(def, raw, field, REGIONS, COUNTRY_REGION),
  continent: (raw, field, def) => countriesOf(def, raw, field, CONTINENTS, COUNTRY_CONTINENT),
  seniority: (raw, field, def) => {
    const slugs = SENIORITY_INDEX.get(foldKey(raw));
    if (slugs === undefined) throw unknownFamilyBValue(def, raw, field);
    return [...slugs];
  },
  list: (raw, field, def) => {
    const slug = def.list === 'email_status' ? emailStatus(raw) : foldValue(def.list ?? '', raw);
    if (slug === undefined) throw unknownFamilyBValue(def, raw, field);
    return [slug];
  },
  company_network_url: (raw, field, _def, ctx) => {
    const url = parseNetworkUrl(raw, ctx.networkHost);
    const example = `https://www.${ctx.networkHost.replace(/^www\./, '')}/company/<slug>`;
    if (url === undefined)
      throw malformed(
        field,
        `${quote(raw)} is not a profile URL of the network.`,
        `Send company profile URLs such as ${example}.`,
      );
    if (url.kind !== 'company')
      throw malformed(
        field,
        `${quote(raw)} is not a company profile URL.`,
        `Send company profile URLs such as ${example}; person and post URLs are not accepted here.`,
      );
    return [url.slug];
  },
  // Dates, numbers, booleans and list ids are read by their compilers, never through here.
  date: (raw) => [raw.trim()],
  number: (raw) => [raw.trim()],
  boolean: (raw) => [raw.trim()],
  list_id: (raw) => [raw.trim()],
};

function domain(raw: string, field: string): string {
  const d = normalizeDomain(raw);
  if (d === undefined)
    throw malformed(field, `${quote(raw)} is not a domain.`, 'Send a bare domain such as acme.com or a website URL.');
  return d;
}

/** Family B labels and aliases, then family A slugs (each meaning itself). */
const SENIORITY_INDEX: ReadonlyMap<string, readonly string[]> = (() => {
  const m = new Map<string, readonly string[]>();
  for (const s of FAMILY_B_SENIORITY) for (const form of [s.label, ...s.aliases]) m.set(foldKey(form), s.slugs);
  for (const slug of FAMILY_B_SENIORITY.flatMap((s) => s.slugs))
    if (!m.has(foldKey(slug))) m.set(foldKey(slug), [slug]);
  return m;
})();

/** VALID, CATCH_ALL, INVALID (labels, slugs, aliases such as catch-all); UNKNOWN and `verified` are not filters. */
function emailStatus(raw: string): string | undefined {
  const slug = foldValue('email_status', raw);
  return FAMILY_B_EMAIL_STATUSES.some((s) => s.slug === slug) ? slug : undefined;
}

/** The person's country slugs of a region or continent, sorted. */
function countriesOf(
  def: FamilyBParamDef,
  raw: string,
  field: string,
  names: readonly string[],
  byCountry: Readonly<Record<string, string>>,
): string[] {
  const name = names.find((n) => foldKey(n) === foldKey(raw));
  if (name === undefined) throw unknownFamilyBValue(def, raw, field);
  return Object.keys(byCountry)
    .filter((slug) => byCountry[slug] === name)
    .sort();
}

/** 400 `filter.unknown_value` in family B words: the labels clients send, or the filter-values route for long lists. */
function unknownFamilyBValue(def: FamilyBParamDef, raw: string, field: string, lead = ''): AppError {
  const message = `${quote(raw)} is not a known value of ${def.name}.`;
  const route = `GET /api/v1/contacts/filter-values lists the values of ${def.name}.`;
  const allowed = def.allowed;
  if (allowed !== undefined && allowed.length <= HINT_MAX_SLUGS) {
    return unknownValue(field, message, `${lead ? `${lead} ` : ''}Use one of: ${allowed.join(', ')}.`, allowed);
  }
  return unknownValue(field, message, `${lead ? `${lead} ` : ''}${route}`);
}
