import type { Rng } from './rng.js';
import {
  ADJECTIVES,
  BRAND_PREFIXES,
  BRAND_ROOTS,
  NOUNS,
  SYLLABLES_END,
  SYLLABLES_START,
} from './vocab/company-words.js';
import type { CountryGeo } from './vocab/geo.js';
import { asciiName } from './vocab/names.js';
import { SECTORS } from './vocab/sectors.js';
import { Weighted } from './weighted.js';

export interface CompanyNaming {
  /** The name as the source writes it, legal suffix included. */
  name: string;
  /** Bare website domain, unique across the dump. */
  domain: string;
  /** Network page slug, unique across the dump. */
  slug: string;
}

const LETTERS = 'ABCDEFGHIJKLMNOPRSTVWXZ';
const TECH_TLDS = new Set(['software', 'it_services', 'telecom']);

function slugify(s: string): string {
  return asciiWords(s).join('-');
}

function asciiWords(s: string): string[] {
  return s
    .split(/[\s&]+/)
    .map((w) => asciiName(w.replace(/\d/g, (d) => String.fromCharCode(97 + Number(d)))))
    .filter((w) => w.length > 0);
}

/** Invents company names, domains and page slugs; remembers domains and slugs to keep them unique. */
export class CompanyNamer {
  private readonly domains = new Set<string>();
  private readonly slugs = new Set<string>();
  private readonly suffixPickers = new Map<string, Weighted<string>>();

  next(rng: Rng, geo: CountryGeo, sector: string, city: string | null): CompanyNaming {
    const words = SECTORS[sector]?.words ?? ['Group'];
    const brand = this.brand(rng, geo, words, city);
    const suffixes = this.suffixes(geo);
    let name = brand;
    if (suffixes && rng.chance(0.3)) {
      const suffix = suffixes.pick(rng);
      name = rng.chance(0.2) ? `${brand}, ${suffix}` : `${brand} ${suffix}`;
    }
    if (rng.chance(0.03)) name = `The ${name}`;
    return { name, domain: this.domain(rng, geo, sector, brand), slug: this.slug(brand, geo) };
  }

  private suffixes(geo: CountryGeo): Weighted<string> | undefined {
    if (!geo.profile) return undefined;
    let picker = this.suffixPickers.get(geo.slug);
    if (!picker) {
      picker = new Weighted(Object.entries(geo.profile.suffixes));
      this.suffixPickers.set(geo.slug, picker);
    }
    return picker;
  }

  private brand(rng: Rng, geo: CountryGeo, words: readonly string[], city: string | null): string {
    const compound = (): string => rng.pick(BRAND_PREFIXES) + rng.pick(BRAND_ROOTS);
    const f = rng.int(100);
    if (f < 30) return compound();
    if (f < 50) return `${compound()} ${rng.pick(words)}`;
    if (f < 65) return `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)} ${rng.pick(words)}`;
    if (f < 73) return `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`;
    const culture = geo.cultures.pick(rng);
    if (f < 83) return `${rng.pick(culture.last).name} ${rng.pick(words)}`;
    if (f < 88) return `${rng.pick(culture.last).name} & ${rng.pick(culture.last).name}`;
    if (f < 93 && city) return `${city} ${rng.pick(words)}`;
    if (f < 97) return `${rng.chars(rng.range(2, 4), LETTERS)} ${rng.pick(words)}`;
    return rng.pick(SYLLABLES_START) + rng.pick(SYLLABLES_END);
  }

  private domain(rng: Rng, geo: CountryGeo, sector: string, brand: string): string {
    const words = asciiWords(brand);
    const f = rng.int(10);
    const base = f < 5 ? words.join('') : f < 7 ? words.join('-') : words[0]!;
    const t = rng.int(100);
    const local = geo.profile && geo.slug !== 'us' ? geo.profile.tld : 'com';
    const tld =
      sector === 'nonprofit' && t < 60
        ? 'org'
        : TECH_TLDS.has(sector) && t < 25
          ? rng.pick(['io', 'ai', 'co', 'dev'])
          : t < 70
            ? 'com'
            : t < 92
              ? local
              : rng.pick(['net', 'co', 'io', 'org']);
    const tries = [base, `get${base}`, `${base}hq`, `${base}-${geo.slug}`, `${words.join('')}${geo.slug}`];
    for (const candidate of tries) {
      const d = `${candidate}.${tld}`;
      if (!this.domains.has(d)) {
        this.domains.add(d);
        return d;
      }
    }
    for (let n = 2; ; n++) {
      const d = `${base}${n}.${tld}`;
      if (!this.domains.has(d)) {
        this.domains.add(d);
        return d;
      }
    }
  }

  private slug(brand: string, geo: CountryGeo): string {
    const base = slugify(brand) || 'company';
    const tries = [base, `${base}-${geo.slug}`, `${base}-inc`, `${base}-group`];
    for (const s of tries) {
      if (!this.slugs.has(s)) {
        this.slugs.add(s);
        return s;
      }
    }
    for (let n = 2; ; n++) {
      const s = `${base}-${n}`;
      if (!this.slugs.has(s)) {
        this.slugs.add(s);
        return s;
      }
    }
  }
}
