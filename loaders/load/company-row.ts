import { networkProfileUrl, parseNetworkUrl } from '../../src/domain/normalize/index.js';
import type { SourceCompany, SourceLocation } from '../dump-format.js';
import {
  bool,
  companyNameNorm,
  countrySlug,
  domainOf,
  entityType,
  fundingRoundType,
  industryOf,
  int,
  list,
  month,
  num,
  revenueBand,
  sizeBand,
  text,
} from './values.js';

/**
 * A normalized company: the `companies` columns the loader computes (contact_count and sort_key come later, in SQL).
 */
export type CompanyRow = Record<string, unknown>;

/** What a contact needs to know about its employer while its row is built; the other columns are joined in SQL. */
export interface EmployerRef {
  id: string;
  name: string;
  domain: string | null;
  nameNorm: string | null;
  isPublic: boolean;
}

export interface CompanyResult {
  row: CompanyRow;
  employer: EmployerRef;
  /** Industry labels that are not in the taxonomy (dropped). */
  unknownIndustries: number;
}

function hqOf(locations: readonly SourceLocation[]): SourceLocation | undefined {
  return locations.find((l) => l.is_hq === true) ?? locations[0];
}

function distinct(values: Array<string | null>): string[] | null {
  const s = new Set(values.filter((v): v is string => v !== null));
  return s.size ? [...s] : null;
}

function codes(
  items: ReadonlyArray<{ code: string; description: string }> | null | undefined,
  key: 'code' | 'description',
): string[] | null {
  return items?.length
    ? distinct(items.map((i) => text(i[key] === undefined || i[key] === null ? null : String(i[key]))))
    : null;
}

export function companyRow(c: SourceCompany, networkHost: string): CompanyResult {
  const name = c.name.trim();
  const domain = c.website ? domainOf(c.website) : null;
  const net = c.profile_url ? parseNetworkUrl(c.profile_url, networkHost) : undefined;
  const slug = net?.kind === 'company' ? net.slug : null;

  let unknownIndustries = 0;
  const industries = distinct(
    (c.industries ?? []).map((label) => {
      const slug = label.trim() ? industryOf(label) : null;
      if (!slug && label.trim()) unknownIndustries++;
      return slug;
    }),
  );

  const locations = (c.locations ?? []).map((l) => ({
    street: text(l.street),
    postcode: text(l.postcode),
    city: text(l.city),
    state: text(l.state),
    country: l.country ? (countrySlug(l.country) ?? text(l.country)) : null,
    is_hq: l.is_hq === true,
  }));
  const hq = hqOf(c.locations ?? []);

  let last: { month: string; type: string } | null = null;
  let funding: number | null = null;
  for (const r of c.funding_rounds ?? []) {
    const m = month(r.date);
    if (m === null) continue;
    if (!last || m > last.month) last = { month: m, type: r.type };
    if (typeof r.amount_usd === 'number' && r.amount_usd >= 0) funding = (funding ?? 0) + r.amount_usd;
  }

  const entity = entityType(c.entity_type);
  const ticker = text(c.stock_ticker);
  const isPublic = entity === 'public' || ticker !== null;
  const investors = list(c.investors);
  const nameNorm = companyNameNorm(name);

  const row: CompanyRow = {
    id: c.company_id,
    name,
    domain,
    network: slug ? networkProfileUrl('company', slug, networkHost) : null,
    headcount_band: sizeBand(int(c.employee_count)),
    employee_count: int(c.employee_count),
    founded_year: int(c.founded_year),
    revenue_range: revenueBand(num(c.revenue_usd)),
    revenue_usd: int(c.revenue_usd),
    total_funding_usd: funding === null ? null : Math.round(funding),
    last_round_date: last ? last.month : null,
    last_round_type: last ? fundingRoundType(last.type) : null,
    investors,
    investor_count: investors ? investors.length : null,
    industries,
    hq_country: hq?.country ? countrySlug(hq.country) : null,
    hq_state: text(hq?.state),
    hq_city: text(hq?.city),
    locations: locations.length ? locations : null,
    employee_growth_pct: num(c.employee_growth_pct),
    specialties: list(c.specialties),
    technologies: list(c.technologies),
    entity_type: entity,
    // Unknown unless the source says: a private company without a ticker is not public, no type and no ticker is
    // unknown.
    is_public: entity !== null || ticker !== null ? isPublic : null,
    has_mobile_app: bool(c.has_mobile_app),
    has_web_app: bool(c.has_web_app),
    naics_codes: codes(c.naics, 'code'),
    naics_descriptions: codes(c.naics, 'description'),
    sic_codes: codes(c.sic, 'code'),
    sic_descriptions: codes(c.sic, 'description'),
    uk_industry_codes: codes(c.uk_sic, 'code'),
    uk_industry_descriptions: codes(c.uk_sic, 'description'),
    startup_categories: list(c.startup_categories),
    followers: int(c.followers),
    monthly_traffic: int(c.monthly_traffic),
    monthly_search_adspend: int(c.monthly_search_adspend),
    employee_profiles: int(c.employee_profiles),
    valid_email_count: int(c.valid_email_count),
    headline: text(c.headline),
    description: text(c.description),
    office_countries: distinct(locations.map((l) => (l.country && countrySlug(l.country) ? l.country : null))),
    office_states: distinct(locations.map((l) => l.state)),
    office_cities: distinct(locations.map((l) => l.city)),
    name_norm: nameNorm,
    network_slug: slug,
  };
  return { row, employer: { id: c.company_id, name, domain, nameNorm, isPublic }, unknownIndustries };
}
