import type { Rng } from '../rng.js';
import { Weighted } from '../weighted.js';
import {
  FOUNDER_TITLES,
  FUNCTION_PARTS,
  type FunctionParts,
  type Level,
  REGION_QUALIFIERS,
  SIDE_TITLES,
} from './title-parts.js';

export type { Level } from './title-parts.js';

/** One title with the function and seniority it was built for (what a classifier should find). */
export interface TitleEntry {
  title: string;
  fn: string;
  level: Level;
}

/** Share of each seniority among employees; founders are drawn separately by company size. */
const LEVEL_SHARE: Readonly<Record<Level, number>> = {
  entry: 12,
  ic: 34,
  senior_ic: 20,
  manager: 16,
  director: 8,
  vp: 4,
  c_level: 2.5,
  founder_or_partner: 0.5,
  unknown: 1,
};

/** Functions whose leaders often carry a territory ("VP of Sales, EMEA"). */
const REGIONAL = new Set(['sales_and_bizdev', 'marketing_and_advertising', 'operations', 'customer_service']);

type Cell = Array<[string, number]>;

function fill(patterns: ReadonlyArray<readonly [string, number]>, values: readonly string[], key: string): Cell {
  const out: Cell = [];
  values.forEach((v, i) => {
    for (const [p, w] of patterns) {
      // No "Associate Associate Professor" or "Junior Associate Attorney".
      if (/^(Associate|Junior) /.test(p) && /^(Associate|Junior|Senior|Lead|Principal)\b/.test(v)) continue;
      out.push([p.replace(key, v), w / Math.sqrt(i + 1)]);
    }
  });
  return out;
}

function cells(fn: string, parts: FunctionParts): Partial<Record<Level, Cell>> {
  const staff = fn === 'engineering' || fn === 'information_technology';
  const senior: Array<[string, number]> = [
    ['Senior {ic}', 6],
    ['Sr. {ic}', 2],
    ['Lead {ic}', 1.5],
    ['Principal {ic}', 1],
  ];
  if (staff) senior.push(['Staff {ic}', 1.5]);
  const vp = fill(
    [
      ['VP of {a}', 5],
      ['VP, {a}', 2],
      ['Vice President of {a}', 2],
      ['Vice President, {a}', 1],
      ['SVP, {a}', 1],
      ['EVP, {a}', 0.5],
      ['VP {a}', 1],
      ['Senior Vice President of {a}', 0.5],
    ],
    parts.areas,
    '{a}',
  );
  const director = fill(
    [
      ['Director of {a}', 4],
      ['{a} Director', 2],
      ['Senior Director, {a}', 1],
      ['Head of {a}', 4],
      ['Associate Director, {a}', 0.5],
      ['Director, {a}', 1],
    ],
    parts.areas,
    '{a}',
  );
  if (REGIONAL.has(fn)) {
    for (const region of REGION_QUALIFIERS) {
      vp.push([`VP of ${parts.areas[0]}, ${region}`, 0.3]);
      director.push([`Head of ${parts.areas[0]}, ${region}`, 0.3]);
      director.push([`Regional ${parts.areas[0]} Director`, 0.1]);
    }
  }
  return {
    c_level: parts.chiefs.map((c, i) => [c, 1 / (i + 1)]),
    vp,
    director,
    manager: fill(
      [
        ['{a} Manager', 5],
        ['Senior {a} Manager', 1.5],
        ['Manager, {a}', 1],
        ['{a} Team Lead', 1],
        ['{a} Lead', 1],
      ],
      parts.areas,
      '{a}',
    ),
    senior_ic: fill(senior, parts.ics, '{ic}'),
    ic: parts.ics.map((t, i) => [t, 1 / Math.sqrt(i + 1)]),
    entry: [
      ...fill(
        [
          ['Junior {ic}', 3],
          ['Associate {ic}', 1],
        ],
        parts.ics,
        '{ic}',
      ),
      ...fill(
        [
          ['{a} Intern', 2],
          ['{a} Assistant', 1],
          ['{a} Coordinator', 1],
        ],
        parts.areas.slice(0, 4),
        '{a}',
      ),
    ],
  };
}

function build(): { all: TitleEntry[]; weights: number[] } {
  const all: TitleEntry[] = [];
  const weights: number[] = [];
  for (const [fn, parts] of Object.entries(FUNCTION_PARTS)) {
    const byLevel = cells(fn, parts);
    for (const [level, fixedTitle] of (parts.fixed ?? []).map(([t, l]) => [l, t] as const)) {
      byLevel[level] ??= [];
      byLevel[level].push([fixedTitle, 0]);
    }
    for (const [level, cell] of Object.entries(byLevel) as Array<[Level, Cell]>) {
      const patterned = cell.reduce((s, [, w]) => s + w, 0);
      const fixedCount = cell.filter(([, w]) => w === 0).length;
      // Fixed titles take a tenth of their cell each, so "Plant Manager" is not drowned by the patterns.
      const fixedWeight = patterned > 0 ? patterned * 0.1 : 1;
      const total = patterned + fixedCount * fixedWeight;
      for (const [title, w] of cell) {
        all.push({ title, fn, level });
        weights.push((parts.share * LEVEL_SHARE[level] * (w === 0 ? fixedWeight : w)) / total);
      }
    }
  }
  return { all, weights };
}

const built = build();

/** Every title the generator can produce for an employee, tagged with its function and seniority. */
export const TITLE_ENTRIES: readonly TitleEntry[] = [
  ...built.all,
  ...FOUNDER_TITLES.map(([title, fn]): TitleEntry => ({ title, fn, level: 'founder_or_partner' })),
];

const ANY = new Weighted(built.all.map((e, i) => [e, built.weights[i]!] as const));
const BY_FUNCTION = new Map<string, Weighted<TitleEntry>>(
  Object.keys(FUNCTION_PARTS).map((fn) => [
    fn,
    new Weighted(built.all.flatMap((e, i) => (e.fn === fn ? [[e, built.weights[i]!] as const] : []))),
  ]),
);
const FOUNDERS = new Weighted(
  FOUNDER_TITLES.map(([title, fn], i): readonly [TitleEntry, number] => [
    { title, fn, level: 'founder_or_partner' },
    1 / (i + 1),
  ]),
);

export function pickTitle(rng: Rng): TitleEntry {
  return ANY.pick(rng);
}

/** A title within one job function (companies lean towards their sector's core functions). */
export function pickTitleIn(rng: Rng, fn: string): TitleEntry {
  return (BY_FUNCTION.get(fn) ?? ANY).pick(rng);
}

export function pickFounderTitle(rng: Rng): TitleEntry {
  return FOUNDERS.pick(rng);
}

/** Title of a secondary current role (advisor, board member, side business). */
export function pickSideTitle(rng: Rng): string {
  return rng.pick(SIDE_TITLES);
}
