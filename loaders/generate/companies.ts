import { SIZE_BANDS } from '../../src/domain/catalog/index.js';
import type { SourceCompany, SourceLocation } from '../dump-format.js';
import { postcode, street } from './address.js';
import type { CompanyNamer } from './company-names.js';
import type { CompanyRef, GenContext, Office } from './context.js';
import { distinct } from './distinct.js';
import { companyFill, given } from './fill.js';
import { fundingRounds } from './funding.js';
import { companyId } from './ids.js';
import { pickIndustries } from './industries.js';
import { nationalNumber } from './phones.js';
import type { Rng } from './rng.js';
import {
  AUDIENCES,
  ENTITY_TYPE_WEIGHTS,
  INVESTOR_KINDS,
  INVESTOR_WORDS,
  STOCK_EXCHANGES,
  TAGLINE_ADJECTIVES,
} from './vocab/company-words.js';
import { type CountryGeo, pickCountry } from './vocab/geo.js';
import { SECTOR_CODES } from './vocab/industry-codes.js';
import { SECTORS } from './vocab/sectors.js';
import { TECHNOLOGIES } from './vocab/technologies.js';
import { Weighted } from './weighted.js';

/** Most companies are tiny, a few are huge (shares per catalog size band, smallest first). */
const BAND_WEIGHTS = [38, 28, 17, 7.5, 4, 3.5, 1, 1];
const BANDS = new Weighted(SIZE_BANDS.map((b, i) => [b, BAND_WEIGHTS[i] ?? 1] as const));
const TECH = new Weighted(TECHNOLOGIES.map((t, i) => [t, 1 / (i + 1) ** 0.6] as const));
const ENTITY = new Weighted(ENTITY_TYPE_WEIGHTS.filter(([t]) => !/public/i.test(t)));
const INVESTORS: string[] = INVESTOR_WORDS.flatMap((w) => INVESTOR_KINDS.map((k) => `${w} ${k}`));
const PUBLIC_LABELS = ['Public Company', 'Public Company', 'Public Company', 'public', 'Publicly Held'];

const F = {
  website: companyFill('domain'),
  profile: companyFill('network'),
  employees: companyFill('employee_count'),
  founded: companyFill('founded_year'),
  revenue: companyFill('revenue_usd'),
  funded: companyFill('last_round_type'),
  investors: given(companyFill('investors'), companyFill('last_round_type')),
  industries: companyFill('industries'),
  locations: companyFill('locations'),
  growth: companyFill('employee_growth_pct'),
  specialties: companyFill('specialties'),
  technologies: companyFill('technologies'),
  entity: companyFill('entity_type'),
  mobileApp: companyFill('has_mobile_app'),
  webApp: companyFill('has_web_app'),
  naics: companyFill('naics_codes'),
  sic: companyFill('sic_codes'),
  ukSic: companyFill('uk_industry_codes'),
  startup: companyFill('startup_categories'),
  followers: companyFill('followers'),
  traffic: companyFill('monthly_traffic'),
  adspend: companyFill('monthly_search_adspend'),
  profiles: companyFill('employee_profiles'),
  emails: companyFill('valid_email_count'),
  headline: companyFill('headline'),
  description: companyFill('description'),
};

/** Headcount drawn inside a size band; the open top band follows a Pareto tail. */
function headcount(rng: Rng): number {
  const band = BANDS.pick(rng);
  if (band.max === null) return Math.min(600_000, Math.round(band.min / (1 - rng.float()) ** (1 / 1.3)));
  return Math.round(rng.logUniform(band.min, band.max + 0.99) - 0.49);
}

type Code = { code: string; description: string };
const codeTables = new Map<string, Code[]>();

/** Rows of a `code description` table, parsed once. */
function codeRows(table: string): Code[] {
  let rows = codeTables.get(table);
  if (!rows) {
    rows = table
      .split('\n')
      .map((r) => ({ code: r.slice(0, r.indexOf(' ')), description: r.slice(r.indexOf(' ') + 1) }));
    codeTables.set(table, rows);
  }
  return rows;
}

function codes(rng: Rng, table: string, max: number): Code[] {
  const rows = codeRows(table);
  return distinct(rng.range(1, max), () => rng.pick(rows)).map((r) => ({ ...r }));
}

function office(rng: Rng, geo: CountryGeo): Office {
  return { geo, city: geo.cities ? geo.cities.pick(rng) : null };
}

function location(rng: Rng, o: Office, isHq: boolean): SourceLocation {
  const c = o.city;
  const style = o.geo.profile?.street ?? 'en';
  const state = c?.region ? (c.abbr && rng.chance(0.4) ? c.abbr : c.region) : null;
  return {
    street: c && rng.chance(0.9) ? street(rng, style) : undefined,
    postcode: c && rng.chance(0.9) ? (postcode(rng, o.geo.profile?.postcode ?? '', c.post) ?? undefined) : undefined,
    city: c?.name,
    state: state ?? undefined,
    country: o.geo.spellings.pick(rng),
    is_hq: isHq,
  };
}

function officeCount(rng: Rng, employees: number): number {
  if (employees < 50) return rng.chance(0.1) ? 1 : 0;
  if (employees < 500) return rng.int(2);
  if (employees < 5000) return rng.int(4);
  return rng.range(1, 4);
}

function ticker(rng: Rng, name: string, country: string): string {
  const letters = name
    .replace(/^The /, '')
    .toUpperCase()
    .replace(/[^A-Z]/g, '');
  const t = letters.slice(0, rng.range(2, 4)) || 'XYZ';
  const exchange = STOCK_EXCHANGES[country];
  return exchange && rng.chance(0.25) ? `${exchange}:${t}` : t;
}

function website(rng: Rng, domain: string): string {
  const f = rng.int(100);
  if (f < 25) return `https://www.${domain}/`;
  if (f < 40) return `https://${domain}`;
  if (f < 60) return domain;
  if (f < 70) return `www.${domain}`;
  if (f < 75) return `http://${domain}/about`;
  if (f < 90) return `https://www.${domain}`;
  if (f < 95) return `http://${domain}`;
  return `https://${domain}/en-us/`;
}

function description(
  rng: Rng,
  name: string,
  sector: string,
  founded: number,
  o: Office,
  specialties: readonly string[],
): string {
  const where = o.city ? `${o.city.name}, ${o.geo.spellings.values[0]}` : o.geo.spellings.values[0];
  const [a, b, c] = [rng.pick(specialties), rng.pick(specialties), rng.pick(specialties)];
  const kind = SECTORS[sector]?.words[0]?.toLowerCase() ?? 'services';
  return (
    `${name} is a ${kind} company founded in ${founded} and headquartered in ${where}. We specialize in ${a}, ${b} ` +
    `and ${c}, serving ${rng.pick(AUDIENCES)}.`
  );
}

/** One company: the dump record and what its employees need to know. */
export function generateCompany(
  rng: Rng,
  index: number,
  ctx: GenContext,
  namer: CompanyNamer,
): { record: SourceCompany; ref: CompanyRef } {
  const industries = pickIndustries(rng);
  const sector = SECTORS[industries.sector]!;
  const hq = office(rng, pickCountry(rng));
  const employees = headcount(rng);
  const naming = namer.next(rng, hq.geo, industries.sector, hq.city?.name ?? null);
  const funded = rng.chance(F.funded);
  // Funded companies are startups; other ages grow with headcount.
  const maxAge = funded ? 25 : 10 + 25 * Math.log10(employees + 1);
  const foundedYear = ctx.asOfYear - Math.min(150, Math.floor(rng.logUniform(0.6, maxAge)));
  const offices = [hq];
  for (let i = officeCount(rng, employees); i > 0; i--)
    offices.push(office(rng, rng.chance(0.6) ? hq.geo : pickCountry(rng)));

  const publicChance = employees > 5000 ? 0.45 : employees > 1000 ? 0.15 : employees > 200 ? 0.03 : 0.002;
  const isPublicCo = rng.chance(publicChance);
  const entity = isPublicCo
    ? rng.pick(PUBLIC_LABELS)
    : industries.sector === 'nonprofit' && rng.chance(0.7)
      ? 'Non Profit'
      : industries.sector === 'education' && rng.chance(0.5)
        ? 'Educational'
        : industries.sector === 'government' && rng.chance(0.7)
          ? 'Government Agency'
          : ENTITY.pick(rng);
  const showEntity = rng.chance(F.entity);
  const revenue = Math.round((employees * sector.revenuePerEmployee * Math.exp(rng.normal() * 0.5)) / 1000) * 1000;
  const rounds = funded ? fundingRounds(rng, ctx, foundedYear, isPublicCo) : [];
  const specialties = distinct(rng.range(2, 8), () => rng.pick(sector.specialties));
  const profiles = Math.max(1, Math.round(employees * (0.3 + rng.float() * 0.6)));
  const techTally = employees < 50 ? rng.range(2, 8) : rng.range(5, 25);
  const isGb = hq.geo.slug === 'gb';
  const codesOf = SECTOR_CODES[industries.sector] ?? SECTOR_CODES.professional!;

  const record: SourceCompany = {
    company_id: companyId(ctx.seed, index),
    name: naming.name,
    website: rng.chance(F.website) ? website(rng, naming.domain) : undefined,
    profile_url: rng.chance(F.profile) ? `https://www.${ctx.networkHost}/company/${naming.slug}` : undefined,
    employee_count: rng.chance(F.employees) ? employees : undefined,
    founded_year: rng.chance(F.founded) ? foundedYear : undefined,
    revenue_usd: rng.chance(F.revenue) ? Math.max(20_000, revenue) : undefined,
    industries: rng.chance(F.industries) ? industries.values : undefined,
    locations: rng.chance(F.locations) ? offices.map((o, i) => location(rng, o, i === 0)) : undefined,
    funding_rounds: rounds.length > 0 ? rounds : undefined,
    investors:
      rounds.length > 0 && rng.chance(F.investors)
        ? distinct(rng.range(1, 2 + rounds.length * 2), () => rng.pick(INVESTORS))
        : undefined,
    technologies: rng.chance(F.technologies) ? distinct(techTally, () => TECH.pick(rng)) : undefined,
    entity_type: showEntity ? entity : undefined,
    has_mobile_app: rng.chance(F.mobileApp)
      ? rng.chance(
          industries.sector === 'software' || industries.sector === 'retail' || industries.sector === 'finance'
            ? 0.5
            : 0.15,
        )
      : undefined,
    has_web_app: rng.chance(F.webApp) ? rng.chance(industries.sector === 'software' ? 0.9 : 0.4) : undefined,
    naics: rng.chance(F.naics) ? codes(rng, codesOf.naics, 2) : undefined,
    sic: rng.chance(F.sic) ? codes(rng, codesOf.sic, 2) : undefined,
    // UK SIC codes come from Companies House, so British companies carry them far more often.
    uk_sic: rng.chance(isGb ? 0.9 : given(F.ukSic - 0.08 * 0.9, 0.92)) ? codes(rng, codesOf.uksic, 2) : undefined,
    startup_categories: rng.chance(funded ? 0.6 : given(F.startup - F.funded * 0.6, 1 - F.funded))
      ? distinct(rng.range(1, 3), () => rng.pick(sector.startup))
      : undefined,
    followers: rng.chance(F.followers) ? Math.round(employees * Math.exp(3 + rng.normal())) : undefined,
    monthly_traffic: rng.chance(F.traffic) ? Math.round(employees * Math.exp(5 + rng.normal() * 1.2)) : undefined,
    employee_growth_pct: rng.chance(F.growth)
      ? Math.round((funded ? 25 : 5) * 10 + rng.normal() * 150) / 10
      : undefined,
    monthly_search_adspend: rng.chance(F.adspend)
      ? rng.chance(0.3)
        ? 0
        : Math.round(Math.sqrt(employees) * Math.exp(5 + rng.normal()))
      : undefined,
    employee_profiles: rng.chance(F.profiles) ? profiles : undefined,
    valid_email_count: rng.chance(F.emails) ? Math.round(profiles * (0.1 + rng.float() * 0.5)) : undefined,
    specialties: rng.chance(F.specialties) ? specialties : undefined,
    headline: rng.chance(F.headline)
      ? `${rng.pick(TAGLINE_ADJECTIVES)} ${rng.pick(sector.specialties).toLowerCase()} for ${rng.pick(AUDIENCES)}`
      : undefined,
    description: rng.chance(F.description)
      ? description(rng, naming.name, industries.sector, foundedYear, hq, specialties)
      : undefined,
    stock_ticker: isPublicCo && rng.chance(0.95) ? ticker(rng, naming.name, hq.geo.slug) : undefined,
  };

  const plan = hq.geo.profile?.phone;
  const ref: CompanyRef = {
    index,
    id: record.company_id,
    name: naming.name,
    domain: naming.domain,
    offices,
    employees,
    isPublic: isPublicCo && showEntity,
    sector: industries.sector,
    foundedYear,
    emailPattern: rng.chance(0.7) ? 0 : rng.int(4),
    switchboard: plan && hq.city ? nationalNumber(rng, plan, hq.city.area, false) : null,
  };
  return { record, ref };
}
