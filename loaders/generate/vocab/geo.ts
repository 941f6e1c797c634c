import { listValues } from '../../../src/domain/catalog/index.js';
import type { Rng } from '../rng.js';
import { Weighted } from '../weighted.js';
import { COUNTRY_PROFILES, type CountryProfile, TAIL_CULTURES, TAIL_WEIGHT } from './countries.js';
import { CULTURES, type Culture, type CultureName } from './names.js';
import { PLACES } from './places.js';

export interface City {
  name: string;
  /** Postcode prefix. */
  post: string;
  /** Phone area code. */
  area: string;
  /** State or region name; empty when the country is not usually given one. */
  region: string;
  /** Short form of the region (US/CA/AU/IN states); empty when none. */
  abbr: string;
}

export interface CountryGeo {
  slug: string;
  profile: CountryProfile | undefined;
  cities: Weighted<City> | undefined;
  /** Raw spellings as sources write them, all foldable by the catalog. */
  spellings: Weighted<string>;
  cultures: Weighted<Culture>;
}

function parseCities(text: string): Weighted<City> {
  const entries: Array<[City, number]> = [];
  text.split('\n').forEach((line, rank) => {
    const [head, list] = line.split('=') as [string, string];
    const [region, abbr] = head.split(',');
    // Earlier regions and cities are the bigger business centres.
    const regionWeight = 1 / (rank + 1) ** 0.7;
    list.split(';').forEach((c, i) => {
      const [name, post, area] = c.split('/') as [string, string, string];
      entries.push([{ name, post, area, region: region ?? '', abbr: abbr ?? '' }, regionWeight / (i + 1)]);
    });
  });
  return new Weighted(entries);
}

function cultureWeights(weights: Partial<Record<CultureName, number>>): Weighted<Culture> {
  return new Weighted(Object.entries(weights).map(([name, w]) => [CULTURES[name as CultureName], w ?? 0] as const));
}

const US_SPELLINGS: ReadonlyArray<readonly [string, number]> = [
  ['United States', 50],
  ['US', 12],
  ['USA', 12],
  ['usa', 4],
  ['U.S.', 4],
  ['United States of America', 8],
  ['us', 3],
  ['united states', 4],
  ['U.S.A.', 3],
];

/** Label most of the time, then the upper-case code, the lower-case label and the catalog's aliases. */
function spellings(slug: string, label: string, aliases: readonly string[]): Weighted<string> {
  if (slug === 'us') return new Weighted(US_SPELLINGS);
  const forms: Array<[string, number]> = [
    [label, 66],
    [slug.toUpperCase(), 18],
    [label.toLowerCase(), 4],
    [label.toUpperCase(), 2],
  ];
  const named = aliases.filter((a) => a.length > 3);
  for (const a of named) forms.push([a, 10 / named.length]);
  return new Weighted(forms);
}

let picker: Weighted<CountryGeo> | undefined;

/** Every catalog country with its weight; built on first use so the catalog's full list is read. */
function build(): Weighted<CountryGeo> {
  const weights: Array<[CountryGeo, number]> = [];
  const countries = listValues('country');
  const tail = countries.filter((c) => !COUNTRY_PROFILES[c.slug]).length;
  for (const c of countries) {
    const profile = COUNTRY_PROFILES[c.slug];
    const places = PLACES[c.slug];
    const geo: CountryGeo = {
      slug: c.slug,
      profile,
      cities: places ? parseCities(places) : undefined,
      spellings: spellings(c.slug, c.label, c.aliases ?? []),
      cultures: cultureWeights(profile?.cultures ?? TAIL_CULTURES),
    };
    weights.push([geo, profile ? profile.weight : TAIL_WEIGHT / Math.max(1, tail)]);
  }
  return new Weighted(weights);
}

/** A person or office country, weighted like a B2B database. */
export function pickCountry(rng: Rng): CountryGeo {
  picker ??= build();
  return picker.pick(rng);
}
