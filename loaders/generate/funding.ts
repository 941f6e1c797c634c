import type { GenContext } from './context.js';
import { dayOfYmd } from './dates.js';
import type { Rng } from './rng.js';

/** Round ladder with source spellings and typical amounts (USD, min-max). */
const LADDER: ReadonlyArray<{ spellings: readonly string[]; min: number; max: number }> = [
  { spellings: ['Pre-Seed', 'pre-seed', 'Pre-seed', 'pre_seed'], min: 150_000, max: 1_500_000 },
  { spellings: ['Seed', 'seed', 'SEED'], min: 500_000, max: 5_000_000 },
  { spellings: ['Series A', 'series_a', 'Series A'], min: 4_000_000, max: 25_000_000 },
  { spellings: ['Series B', 'series_b', 'Series B'], min: 15_000_000, max: 70_000_000 },
  { spellings: ['Series C', 'series_c', 'Series C'], min: 30_000_000, max: 150_000_000 },
  { spellings: ['Series D', 'series_d'], min: 60_000_000, max: 300_000_000 },
  { spellings: ['Series E', 'series_e'], min: 100_000_000, max: 600_000_000 },
];
const LATE = [
  { spellings: ['Private Equity', 'private_equity', 'Private equity'], min: 20_000_000, max: 800_000_000 },
  { spellings: ['Debt Financing', 'debt', 'Debt financing'], min: 1_000_000, max: 200_000_000 },
  { spellings: ['Other', 'other'], min: 100_000, max: 10_000_000 },
];

/**
 * Rounds from the founding year on, 10-30 months apart, stopping at `asOf`; rounds can fall in the
 * last months before `asOf`, so recent-round filters find companies.
 */
export function fundingRounds(
  rng: Rng,
  ctx: GenContext,
  foundedYear: number,
  isPublic: boolean,
): Array<{ type: string; date: string; amount_usd?: number }> {
  const rounds: Array<{ type: string; date: string; amount_usd?: number }> = [];
  // The first round comes within two years of founding, and never after asOf.
  let day = Math.min(dayOfYmd(foundedYear, 1, 1) + rng.int(700), ctx.asOfDay - rng.int(90));
  let step = rng.chance(0.35) ? 0 : 1;
  const stopAt = rng.range(2, isPublic ? 7 : 6);
  for (let n = 0; n < 8 && day <= ctx.asOfDay; n++) {
    const rung = step < LADDER.length && step <= stopAt ? LADDER[step]! : LATE[rng.int(LATE.length)]!;
    const amount = Math.round(rng.logUniform(rung.min, rung.max) / 10_000) * 10_000;
    rounds.push({
      type: rng.pick(rung.spellings),
      date: ctx.days.ymdOf(day),
      ...(rng.chance(0.85) ? { amount_usd: amount } : {}),
    });
    step++;
    day += rng.range(300, 900);
  }
  return rounds;
}
