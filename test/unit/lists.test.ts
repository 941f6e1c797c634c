import { findList, foldKey, foldListValue, listValues } from '../../src/domain/catalog/index.js';
import { CONTINENTS, COUNTRY_CONTINENT, COUNTRY_REGION, REGIONS } from '../../src/domain/catalog/lists/geo.js';
import { industrySlug, normalizeCountry, slugifyLabel } from '../../src/domain/normalize/index.js';

const countries = listValues('country');
const industries = listValues('industry');

/** Every accepted spelling of a list value. */
const formsOf = (v: { slug: string; label: string; aliases?: readonly string[] }): string[] => [
  v.slug,
  v.label,
  ...(v.aliases ?? []),
];

/** Each form a list accepts must fold to exactly one slug, or the later value silently wins. */
function foldCollisions(values: typeof countries): string[] {
  const owner = new Map<string, string>();
  const clashes: string[] = [];
  for (const v of values) {
    for (const form of formsOf(v)) {
      const key = foldKey(form);
      const prev = owner.get(key);
      if (prev !== undefined && prev !== v.slug) clashes.push(`${form}: ${prev} / ${v.slug}`);
      owner.set(key, v.slug);
    }
  }
  return clashes;
}

describe('countries', () => {
  it('holds every ISO-3166-1 country', () => {
    expect(countries.length).toBeGreaterThanOrEqual(245);
  });

  it('has unique slugs and labels; slugs are two lowercase letters', () => {
    expect(new Set(countries.map((c) => c.slug)).size).toBe(countries.length);
    expect(new Set(countries.map((c) => c.label)).size).toBe(countries.length);
    for (const c of countries) expect(c.slug).toMatch(/^[a-z]{2}$/);
  });

  it('folds every form to one country only', () => {
    expect(foldCollisions(countries)).toEqual([]);
  });

  it('normalizeCountry accepts every slug, label and alias of its own country', () => {
    const wrong = countries.flatMap((c) =>
      formsOf(c)
        .filter((f) => normalizeCountry(f) !== c.slug)
        .map((f) => `${f} -> ${normalizeCountry(f)}`),
    );
    expect(wrong).toEqual([]);
  });

  it.each([
    ['US', 'us'],
    ['USA', 'us'],
    ['United States', 'us'],
    ['united-states', 'us'],
    ['gb', 'gb'],
    ['UK', 'gb'],
    ['Deutschland', 'de'],
    ['KOR', 'kr'],
    ['Russian Federation', 'ru'],
  ])('foldListValue(country, %j) = %s', (input, slug) => {
    expect(foldListValue('country', input)).toBe(slug);
  });

  it.each(['ZZ', 'Narnia', ''])('foldListValue(country, %j) is undefined', (input) => {
    expect(foldListValue('country', input)).toBeUndefined();
  });
});

describe('geography', () => {
  it('gives every country a known continent and, except Antarctica, a known region', () => {
    for (const { slug } of countries) {
      expect([slug, CONTINENTS.includes(COUNTRY_CONTINENT[slug]!)]).toEqual([slug, true]);
      if (slug === 'aq') expect(COUNTRY_REGION[slug]).toBeUndefined();
      else expect([slug, REGIONS.includes(COUNTRY_REGION[slug]!)]).toEqual([slug, true]);
    }
  });

  it('maps no slug that is not a country', () => {
    const known = new Set(countries.map((c) => c.slug));
    expect(Object.keys(COUNTRY_CONTINENT).filter((s) => !known.has(s))).toEqual([]);
    expect(Object.keys(COUNTRY_REGION).filter((s) => !known.has(s))).toEqual([]);
  });

  it.each([
    ['us', 'North America', 'NORAM'],
    ['ca', 'North America', 'NORAM'],
    ['mx', 'North America', 'LATAM'],
    ['pr', 'North America', 'LATAM'],
    ['cr', 'North America', 'LATAM'],
    ['br', 'South America', 'LATAM'],
    ['de', 'Europe', 'EMEA'],
    ['ru', 'Europe', 'EMEA'],
    ['ae', 'Asia', 'EMEA'],
    ['il', 'Asia', 'EMEA'],
    ['za', 'Africa', 'EMEA'],
    ['eg', 'Africa', 'EMEA'],
    ['in', 'Asia', 'APAC'],
    ['jp', 'Asia', 'APAC'],
    ['au', 'Oceania', 'APAC'],
    ['nz', 'Oceania', 'APAC'],
    ['aq', 'Antarctica', undefined],
  ])('%s is in %s, region %s', (slug, continent, region) => {
    expect(COUNTRY_CONTINENT[slug]).toBe(continent);
    expect(COUNTRY_REGION[slug]).toBe(region);
  });
});

describe('industries', () => {
  it('has 300 to 450 entries with unique slugs and labels', () => {
    expect(industries.length).toBeGreaterThanOrEqual(300);
    expect(industries.length).toBeLessThanOrEqual(450);
    expect(new Set(industries.map((i) => i.slug)).size).toBe(industries.length);
    expect(new Set(industries.map((i) => i.label)).size).toBe(industries.length);
  });

  it('derives every slug from its label by the slug rule', () => {
    const off = industries.filter(
      (i) => i.slug !== slugifyLabel(i.label) || !/^[a-z0-9]+(?:_[a-z0-9]+)*$/.test(i.slug),
    );
    expect(off.map((i) => `${i.label} -> ${i.slug}`)).toEqual([]);
  });

  it('folds every label and alias back to its slug, and no form to two slugs', () => {
    expect(foldCollisions(industries)).toEqual([]);
    const wrong = industries.flatMap((i) =>
      formsOf(i).filter((f) => foldListValue('industry', f) !== i.slug || industrySlug(f) !== i.slug),
    );
    expect(wrong).toEqual([]);
  });

  it.each([
    ['Software Development', 'software_development'],
    ['Hospitals and Health Care', 'hospitals_and_health_care'],
    ['IT Services and IT Consulting', 'it_services_and_it_consulting'],
    ['Non-profit Organizations', 'non_profit_organizations'],
    ['Media & Telecommunications', 'media_and_telecommunications'],
  ])('foldListValue(industry, %j) = %s', (label, slug) => {
    expect(foldListValue('industry', label)).toBe(slug);
  });

  it('is served under the industries values route', () => {
    expect(findList('industry')?.routeName).toBe('industries');
  });
});
