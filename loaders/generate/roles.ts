import type { SourceRole } from '../dump-format.js';
import type { CompanyRef, GenContext } from './context.js';
import { dayOfYmd } from './dates.js';
import type { Rng } from './rng.js';
import { SECTORS } from './vocab/sectors.js';
import { pickFounderTitle, pickSideTitle, pickTitle, pickTitleIn, type TitleEntry } from './vocab/titles.js';

/** Chance that an employee is the founder or owner, by company headcount. */
function founderChance(employees: number): number {
  if (employees <= 10) return 0.22;
  if (employees <= 50) return 0.05;
  if (employees <= 200) return 0.015;
  return 0.002;
}

/** Title of a main role: founders in small firms, the sector's core functions over-represented. */
export function mainTitle(rng: Rng, company: CompanyRef): TitleEntry {
  if (rng.chance(founderChance(company.employees))) return pickFounderTitle(rng);
  const core = SECTORS[company.sector]?.fns;
  if (core && rng.chance(0.35)) return pickTitleIn(rng, rng.pick(core));
  return pickTitle(rng);
}

/** Titles as typed: a few all lower-case or all upper-case. */
export function typedTitle(rng: Rng, title: string): string {
  const k = rng.int(1000);
  if (k < 20) return title.toLowerCase();
  if (k < 25) return title.toUpperCase();
  return title;
}

function foundedDay(company: CompanyRef): number {
  return dayOfYmd(company.foundedYear, 1, 1);
}

/**
 * Start of the current role: about 5% in the last 90 days, 12% more in the last year, the rest
 * spread over 1-15 years (log-uniform, so recent years hold more); never before the company existed.
 */
export function startDay(rng: Rng, ctx: GenContext, company: CompanyRef): number {
  const u = rng.float();
  const ago = u < 0.05 ? rng.int(90) : u < 0.17 ? rng.range(90, 364) : Math.floor(rng.logUniform(365, 15 * 365));
  const day = ctx.asOfDay - ago;
  const earliest = foundedDay(company);
  return day >= earliest ? day : earliest + rng.int(Math.max(1, ctx.asOfDay - earliest + 1));
}

/** Founders start when the company starts, unless it is too old for them to still be there. */
export function founderStartDay(rng: Rng, ctx: GenContext, company: CompanyRef): number {
  if (company.foundedYear < ctx.asOfYear - 30) return startDay(rng, ctx, company);
  return Math.min(ctx.asOfDay, foundedDay(company) + rng.int(365));
}

/** A role on an employer as a source writes it (name, domain and id, each sometimes missing). */
export function role(
  rng: Rng,
  ctx: GenContext,
  company: CompanyRef,
  title: string,
  start: number | null,
  primary: boolean,
  pDomain: number,
  exactDate: boolean,
): SourceRole {
  const d = company.domain;
  const f = rng.int(100);
  const domain = f < 85 ? d : f < 90 ? `www.${d}` : f < 95 ? `https://${d}` : `https://www.${d}/`;
  return {
    title,
    company_id: company.id,
    company_name: rng.chance(0.95) ? company.name : company.name.replace(/,? (Inc\.?|LLC|Ltd\.?|GmbH|Limited)$/, ''),
    company_domain: rng.chance(pDomain) ? domain : undefined,
    start_date:
      start === null ? undefined : exactDate || rng.chance(0.85) ? ctx.days.ymdOf(start) : ctx.days.monthOf(start),
    is_primary: primary,
  };
}

/** A second current role beside the main job: advisor, board seat, side business. */
export function sideRole(rng: Rng, ctx: GenContext, company: CompanyRef, pDomain: number): SourceRole {
  const start = Math.max(foundedDay(company), ctx.asOfDay - rng.int(10 * 365));
  return role(rng, ctx, company, pickSideTitle(rng), rng.chance(0.8) ? start : null, false, pDomain, false);
}
