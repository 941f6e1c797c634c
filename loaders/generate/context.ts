import type { DayFormatter } from './dates.js';
import type { NationalNumber } from './phones.js';
import type { City, CountryGeo } from './vocab/geo.js';
import type { Weighted } from './weighted.js';

/** Settings and shared state of one generation run. */
export interface GenContext {
  seed: number;
  asOfDay: number;
  asOfYear: number;
  networkHost: string;
  days: DayFormatter;
}

export interface Office {
  geo: CountryGeo;
  city: City | null;
}

/** What people need to know about their employer; kept in memory for the whole run. */
export interface CompanyRef {
  index: number;
  id: string;
  name: string;
  /** Bare domain used for emails, even when the dump omits the website. */
  domain: string;
  /** HQ first, then other offices. */
  offices: Office[];
  employees: number;
  /** Public and shown as such in the dump (its entity type is present). */
  isPublic: boolean;
  sector: string;
  foundedYear: number;
  /** 0 first.last, 1 flast, 2 first, 3 first_last. */
  emailPattern: number;
  /** The main line, shared by planted colleagues. */
  switchboard: NationalNumber | null;
}

/** Companies of the run and the pickers people draw their employers from. */
export interface Employers {
  refs: CompanyRef[];
  /** Weighted by headcount, so big companies hold more of the contacts; null when there are none. */
  byHeadcount: Weighted<CompanyRef> | null;
  /** Companies shown as public. */
  publicOnes: CompanyRef[];
  /** Small companies (founders). */
  small: CompanyRef[];
  /** Companies with a known phone plan and an office city (shared switchboard numbers). */
  withPhones: CompanyRef[];
}
