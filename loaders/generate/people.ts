import type { SourcePerson, SourceRole } from '../dump-format.js';
import { profileSlug, profileUrl, workEmail } from './contact-points.js';
import type { CompanyRef, Employers, GenContext, Office } from './context.js';
import { yearOfDay } from './dates.js';
import { contactFill, given } from './fill.js';
import { personId } from './ids.js';
import {
  certifications,
  education,
  headline,
  jobDescription,
  languages,
  personas,
  skills,
  social,
  summary,
} from './person-details.js';
import { formatPhone, nationalNumber } from './phones.js';
import { type Plant, plantAt } from './plan.js';
import type { Rng } from './rng.js';
import { founderStartDay, mainTitle, role, sideRole, startDay, typedTitle } from './roles.js';
import { SeenSet } from './seen.js';
import { type City, type CountryGeo, pickCountry } from './vocab/geo.js';
import type { NamePart } from './vocab/names.js';
import { pickFounderTitle, type TitleEntry } from './vocab/titles.js';
import { weightedRecord } from './weighted.js';

const P = {
  role: contactFill('experience'),
  domain: given(contactFill('company_domain'), contactFill('experience')),
  start: given(contactFill('role_since'), contactFill('experience')),
  jobDescription: given(contactFill('job_description'), contactFill('experience')),
  email: given(contactFill('work_email'), contactFill('experience')),
  verified: given(contactFill('email_verified_month'), contactFill('work_email')),
  // Phones need a country with a known numbering plan (~98% of people).
  mobile: given(contactFill('mobile_phone'), 0.98),
  direct: given(contactFill('direct_phone'), 0.97),
  country: contactFill('country'),
  city: given(contactFill('city'), contactFill('country') * 0.985),
  state: given(contactFill('state'), contactFill('city')),
  jobCountry: given(contactFill('job_location_country'), contactFill('experience')),
  jobCity: given(contactFill('job_location_city'), contactFill('job_location_country')),
  jobState: given(contactFill('job_location_state'), contactFill('job_location_country')),
  names: contactFill('first_name'),
  profile: contactFill('network'),
  skills: contactFill('skills'),
  languages: contactFill('languages'),
  personas: given(contactFill('personas'), contactFill('experience')),
  education: contactFill('education'),
  certifications: contactFill('certifications'),
  social: contactFill('social'),
  headline: given(contactFill('headline'), contactFill('experience')),
  summary: contactFill('person_description'),
  refreshed: contactFill('last_refreshed'),
};

const EMAIL_STATUS = weightedRecord({
  valid: 38,
  VALID: 12,
  Valid: 5,
  'catch-all': 8,
  CATCH_ALL: 4,
  catch_all: 2,
  catchall: 1,
  invalid: 4,
  INVALID: 2,
  unknown: 18,
  UNKNOWN: 6,
});
const CREDENTIALS = [', MBA', ', PhD', ', CPA', ', PMP', ' Jr.', ', MD'];
const UPDATE_WINDOW = 3 * 365;

interface Remembered {
  first: NamePart;
  last: NamePart;
  fullName: string;
  company: CompanyRef | null;
  email: string | null;
  slug: string | null;
  updatedDay: number;
}

/** State carried from row to row: uniqueness sets and the first half of each planted pair. */
export class PeopleState {
  readonly emails: SeenSet;
  readonly slugs: SeenSet;
  pairEmail: Remembered | undefined;
  pairSlug: Remembered | undefined;
  phoneGroup: CompanyRef | undefined;

  constructor(expected: number) {
    this.emails = new SeenSet(expected);
    this.slugs = new SeenSet(expected);
  }
}

function employer(rng: Rng, plant: Plant | undefined, employers: Employers, state: PeopleState): CompanyRef | null {
  const weighted = employers.byHeadcount;
  if (!weighted) return null;
  switch (plant) {
    case 'dup_email_b':
      return state.pairEmail?.company ?? weighted.pick(rng);
    case 'phone_group_a':
      state.phoneGroup = employers.withPhones.length ? rng.pick(employers.withPhones) : weighted.pick(rng);
      return state.phoneGroup;
    case 'phone_group_b':
      return state.phoneGroup ?? weighted.pick(rng);
    case 'founder':
      return employers.small.length ? rng.pick(employers.small) : weighted.pick(rng);
    case 'public_company':
      return employers.publicOnes.length ? rng.pick(employers.publicOnes) : weighted.pick(rng);
    case undefined:
      return rng.chance(P.role) ? weighted.pick(rng) : null;
    default:
      return weighted.pick(rng);
  }
}

/** Side roles sit mostly at small firms (advisory seats, own business), never at the main employer. */
function sideEmployer(rng: Rng, employers: Employers, main: CompanyRef): CompanyRef {
  const other =
    rng.chance(0.7) && employers.small.length ? rng.pick(employers.small) : (employers.byHeadcount?.pick(rng) ?? main);
  return other === main ? employers.refs[(main.index + 1) % employers.refs.length]! : other;
}

function fullName(rng: Rng, first: NamePart, last: NamePart): string {
  const k = rng.int(100);
  if (k < 4) return `${first.name} ${String.fromCharCode(65 + rng.int(26))}. ${last.name}`;
  if (k < 6) return `${first.name} ${last.name}${rng.pick(CREDENTIALS)}`;
  return `${first.name} ${last.name}`;
}

function stateName(rng: Rng, city: City): string | null {
  if (!city.region) return null;
  return city.abbr && rng.chance(0.25) ? city.abbr : city.region;
}

function phone(rng: Rng, geo: CountryGeo | undefined, city: City | null, mobile: boolean): string | null {
  const plan = geo?.profile?.phone;
  if (!plan || !geo?.cities) return null;
  const area = (city ?? geo.cities.pick(rng)).area;
  return formatPhone(rng, plan, nationalNumber(rng, plan, area, mobile));
}

/** Role start for planted rows (exact dates) and everyone else. */
function mainStart(rng: Rng, ctx: GenContext, plant: Plant | undefined, company: CompanyRef): number {
  if (plant === 'founder') return founderStartDay(rng, ctx, company);
  if (plant === 'new_in_role') return ctx.asOfDay - rng.range(1, 80);
  if (plant === 'one_year') return ctx.asOfDay - 365 - rng.int(7);
  return startDay(rng, ctx, company);
}

/** Updated within three years before asOf, mostly recently, and not before the current role began. */
function updatedDay(rng: Rng, ctx: GenContext, start: number | null): number {
  const day = ctx.asOfDay - Math.floor(UPDATE_WINDOW * rng.float() ** 1.5);
  if (start !== null && start > day && start <= ctx.asOfDay) return start + rng.int(ctx.asOfDay - start + 1);
  return day;
}

/** The second record of a planted pair differs in updated_at by two months or more. */
function pairedUpdate(rng: Rng, ctx: GenContext, other: number): number {
  const earlier = other - rng.range(62, 400);
  return earlier >= ctx.asOfDay - UPDATE_WINDOW ? earlier : Math.min(ctx.asOfDay, other + rng.range(62, 120));
}

export function generatePerson(
  rng: Rng,
  index: number,
  ctx: GenContext,
  employers: Employers,
  state: PeopleState,
): SourcePerson {
  const plant = plantAt(index);
  const company = employer(rng, plant, employers, state);
  const office: Office | null = company
    ? company.offices.length === 1 || rng.chance(0.6)
      ? company.offices[0]!
      : rng.pick(company.offices)
    : null;
  const geo = office && rng.chance(0.88) ? office.geo : pickCountry(rng);
  const city = geo.cities
    ? office && office.geo === geo && office.city && rng.chance(0.75)
      ? office.city
      : geo.cities.pick(rng)
    : null;

  const twin = plant === 'dup_email_b' ? state.pairEmail : plant === 'dup_slug_b' ? state.pairSlug : undefined;
  const culture = geo.cultures.pick(rng);
  const first = twin?.first ?? rng.pick(culture.first);
  const last = twin?.last ?? rng.pick(culture.last);
  const name = twin?.fullName ?? fullName(rng, first, last);

  // A planted twin is an older or newer copy; its role must not start after its own update.
  const twinUpdated = twin ? pairedUpdate(rng, ctx, twin.updatedDay) : null;
  let entry: TitleEntry | null = null;
  const roles: SourceRole[] = [];
  let start: number | null = null;
  if (company) {
    entry = plant === 'founder' ? pickFounderTitle(rng) : mainTitle(rng, company);
    const forced = plant === 'founder' || plant === 'new_in_role' || plant === 'one_year';
    start =
      entry.level === 'founder_or_partner' && !plant
        ? founderStartDay(rng, ctx, company)
        : mainStart(rng, ctx, plant, company);
    if (twinUpdated !== null) start = Math.min(start, twinUpdated);
    const main = role(
      rng,
      ctx,
      company,
      typedTitle(rng, entry.title),
      forced || rng.chance(P.start) ? start : null,
      true,
      P.domain,
      forced,
    );
    if (rng.chance(P.jobDescription))
      main.description = jobDescription(rng, entry.fn.replace(/_and_/g, ' & ').replace(/_/g, ' '));
    roles.push(main);
    if (!plant && employers.refs.length > 1 && rng.chance(0.1)) {
      const side = sideRole(rng, ctx, sideEmployer(rng, employers, company), P.domain);
      // A fifth of the sources list the side role first; is_primary still marks the main one.
      if (rng.chance(0.2)) roles.unshift(side);
      else roles.push(side);
    }
  }

  let email: string | null = null;
  if (plant === 'dup_email_b' && twin?.email) email = twin.email.toLowerCase();
  else if (company && (plant === 'dup_email_a' || rng.chance(P.email)))
    email = workEmail(rng, first, last, company, state.emails);

  let slug: string | null = null;
  if (plant === 'dup_slug_b' && twin?.slug) slug = twin.slug;
  else if (plant === 'dup_slug_a' || rng.chance(P.profile)) slug = profileSlug(rng, first, last, state.slugs);

  const skillList = rng.chance(P.skills) ? skills(rng, entry?.fn ?? 'other') : null;
  const hasCountry = rng.chance(P.country);
  const hasCity = hasCountry && city !== null && rng.chance(P.city);
  const personCity = hasCity ? city : null;
  const switchboard = plant === 'phone_group_a' || plant === 'phone_group_b' ? company?.switchboard : null;
  const officePlan = company?.offices[0]?.geo.profile?.phone;

  const updated = twinUpdated ?? updatedDay(rng, ctx, start);

  const person: SourcePerson = {
    person_id: personId(ctx.seed, index),
    full_name: name,
    first_name: rng.chance(P.names) ? first.name : undefined,
    last_name: rng.chance(P.names) ? last.name : undefined,
    headline: entry && rng.chance(P.headline) ? headline(rng, entry.title, company?.name, skillList ?? []) : undefined,
    summary: rng.chance(P.summary) ? summary(rng, skillList ?? [], personCity?.name) : undefined,
    email,
    email_status: email ? EMAIL_STATUS.pick(rng) : null,
    email_verified_at:
      email && rng.chance(P.verified)
        ? rng.chance(0.7)
          ? ctx.days.monthOf(ctx.asOfDay - rng.int(540))
          : ctx.days.ymdOf(ctx.asOfDay - rng.int(540))
        : undefined,
    mobile_phone: rng.chance(P.mobile) ? (phone(rng, geo, personCity, true) ?? undefined) : undefined,
    direct_phone:
      switchboard && officePlan
        ? formatPhone(rng, officePlan, switchboard)
        : office && rng.chance(P.direct)
          ? (phone(rng, office.geo, office.city, false) ?? undefined)
          : undefined,
    country: hasCountry ? geo.spellings.pick(rng) : rng.chance(0.5) ? null : undefined,
    state: personCity && rng.chance(P.state) ? (stateName(rng, personCity) ?? undefined) : undefined,
    city: personCity ? personCity.name : undefined,
    job_location:
      office && rng.chance(P.jobCountry)
        ? {
            country: office.geo.spellings.pick(rng),
            state: office.city && rng.chance(P.jobState) ? (stateName(rng, office.city) ?? undefined) : undefined,
            city: office.city && rng.chance(P.jobCity) ? office.city.name : undefined,
          }
        : undefined,
    profile_url: slug ? profileUrl(rng, ctx.networkHost, slug) : undefined,
    skills: skillList ?? undefined,
    languages: rng.chance(P.languages) ? languages(rng, geo) : undefined,
    personas: entry && rng.chance(P.personas) ? personas(rng, entry.fn, entry.level) : undefined,
    certifications: rng.chance(P.certifications) ? certifications(rng, ctx.asOfYear) : undefined,
    education: rng.chance(P.education) ? education(rng, geo.slug, careerStartYear(rng, ctx, start)) : undefined,
    roles: roles.length > 0 ? roles : null,
    social: rng.chance(P.social)
      ? social(rng, slug ?? `${first.ascii}${last.ascii}${rng.digits(2)}`, entry?.fn ?? 'other')
      : undefined,
    updated_at: ctx.days.ymdOf(updated),
    refreshed_at: rng.chance(P.refreshed) ? ctx.days.ymdOf(updated + rng.int(ctx.asOfDay - updated + 1)) : undefined,
  };

  remember(plant, state, { first, last, fullName: name, company, email, slug, updatedDay: updated });
  return person;
}

function careerStartYear(rng: Rng, ctx: GenContext, start: number | null): number {
  const roleYear = start === null ? ctx.asOfYear - rng.int(15) : yearOfDay(start);
  return Math.min(ctx.asOfYear, roleYear - rng.int(15));
}

function remember(plant: Plant | undefined, state: PeopleState, r: Remembered): void {
  if (plant === 'dup_email_a') state.pairEmail = r;
  else if (plant === 'dup_slug_a') state.pairSlug = r;
}
