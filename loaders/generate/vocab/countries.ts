import type { CultureName } from './names.js';

/** How phone numbers of a country look: dial code, trunk prefix, national number length, mobile prefixes. */
export interface PhonePlan {
  dial: string;
  trunk: string;
  /** Digits of a national landline number (area code included). */
  nsn: number;
  /** Digits of a national mobile number when it differs from `nsn`. */
  mobileNsn?: number;
  /** Mobile prefixes; empty means mobiles use the city's area code (North America, Mexico, ...). */
  mobile: readonly string[];
  /** nanp: (415) 555-0132 forms; pairs: 01 23 45 67 89 (France); groups: everything else. */
  style: 'nanp' | 'pairs' | 'groups';
}

export type StreetStyle = 'en' | 'de' | 'fr' | 'es' | 'pt' | 'nl' | 'it' | 'nordic';

export interface CountryProfile {
  weight: number;
  cultures: Partial<Record<CultureName, number>>;
  /** P = the city's postcode prefix, # = digit, @ = letter; empty: the country has no postcodes. */
  postcode: string;
  street: StreetStyle;
  phone: PhonePlan;
  tld: string;
  suffixes: Readonly<Record<string, number>>;
  languages: readonly string[];
}

const p = (dial: string, trunk: string, nsn: number, mobile: string, style: PhonePlan['style'] = 'groups', mobileNsn?: number): PhonePlan => ({
  dial,
  trunk,
  nsn,
  mobile: mobile ? mobile.split(' ') : [],
  style,
  ...(mobileNsn !== undefined ? { mobileNsn } : {}),
});

/** Person-country weights follow a typical B2B contact database: US near half, then the large European and English-speaking markets. */
export const COUNTRY_PROFILES: Readonly<Record<string, CountryProfile>> = {
  us: { weight: 45, cultures: { anglo: 62, hispanic: 13, indian: 8, chinese: 6, african: 4, korean: 2, arabic: 2, slavic: 1.5, italian: 1.5 }, postcode: 'P##', street: 'en', phone: p('1', '1', 10, '', 'nanp'), tld: 'com', suffixes: { 'Inc.': 5, LLC: 3, 'Corp.': 1, Inc: 1, Corporation: 0.5, 'Co.': 0.5 }, languages: ['English'] },
  gb: { weight: 8, cultures: { anglo: 75, indian: 8, african: 4, slavic: 3, chinese: 3, arabic: 3, hispanic: 2, french: 1, italian: 1 }, postcode: 'P #@@', street: 'en', phone: p('44', '0', 10, '7700 7911 7400 7525 7810'), tld: 'co.uk', suffixes: { Ltd: 5, Limited: 2, plc: 0.5, LLP: 0.5 }, languages: ['English'] },
  de: { weight: 5, cultures: { german: 82, slavic: 6, arabic: 4, anglo: 3, italian: 2, indian: 2, french: 1 }, postcode: 'P###', street: 'de', phone: p('49', '0', 10, '151 152 160 170 171 176 179', 'groups', 11), tld: 'de', suffixes: { GmbH: 6, AG: 1, 'GmbH & Co. KG': 1, SE: 0.3 }, languages: ['German'] },
  fr: { weight: 4, cultures: { french: 82, arabic: 8, african: 4, hispanic: 2, italian: 2, anglo: 2 }, postcode: 'P###', street: 'fr', phone: p('33', '0', 9, '6 7', 'pairs'), tld: 'fr', suffixes: { SAS: 4, SA: 2, SARL: 1 }, languages: ['French'] },
  in: { weight: 6, cultures: { indian: 97, anglo: 2, arabic: 1 }, postcode: 'P###', street: 'en', phone: p('91', '0', 10, '98 99 97 96 90 88 70 81'), tld: 'in', suffixes: { 'Pvt Ltd': 4, 'Private Limited': 2, Ltd: 1 }, languages: ['Hindi', 'English', 'Tamil', 'Telugu', 'Kannada', 'Marathi', 'Bengali'] },
  ca: { weight: 4, cultures: { anglo: 55, french: 22, chinese: 8, indian: 8, hispanic: 2, arabic: 2, korean: 1, african: 2 }, postcode: 'P #@#', street: 'en', phone: p('1', '1', 10, '', 'nanp'), tld: 'ca', suffixes: { 'Inc.': 5, 'Ltd.': 2, 'Corp.': 1 }, languages: ['English', 'French'] },
  au: { weight: 3, cultures: { anglo: 75, chinese: 8, indian: 7, italian: 3, korean: 2, hispanic: 2, arabic: 2, african: 1 }, postcode: 'P##', street: 'en', phone: p('61', '0', 9, '4'), tld: 'com.au', suffixes: { 'Pty Ltd': 6, Ltd: 1 }, languages: ['English'] },
  nl: { weight: 2, cultures: { dutch: 80, arabic: 5, anglo: 4, german: 3, indian: 3, slavic: 3, african: 2 }, postcode: 'P## @@', street: 'nl', phone: p('31', '0', 9, '6'), tld: 'nl', suffixes: { 'B.V.': 6, 'N.V.': 0.5 }, languages: ['Dutch'] },
  br: { weight: 2.5, cultures: { lusophone: 90, italian: 3, hispanic: 3, german: 2, japanese: 2 }, postcode: 'P###-###', street: 'pt', phone: p('55', '0', 10, '', 'groups', 11), tld: 'com.br', suffixes: { 'Ltda.': 5, 'S.A.': 2 }, languages: ['Portuguese'] },
  es: { weight: 2, cultures: { hispanic: 88, arabic: 3, anglo: 2, lusophone: 2, italian: 2, french: 2, slavic: 1 }, postcode: 'P###', street: 'es', phone: p('34', '', 9, '6 7'), tld: 'es', suffixes: { 'S.L.': 5, 'S.A.': 2 }, languages: ['Spanish'] },
  it: { weight: 1.5, cultures: { italian: 92, arabic: 3, slavic: 2, anglo: 2, african: 1 }, postcode: 'P##', street: 'it', phone: p('39', '', 10, '3'), tld: 'it', suffixes: { 'S.r.l.': 5, 'S.p.A.': 2 }, languages: ['Italian'] },
  se: { weight: 0.8, cultures: { nordic: 85, arabic: 5, slavic: 4, anglo: 3, german: 3 }, postcode: 'P ##', street: 'nordic', phone: p('46', '0', 9, '70 72 73 76'), tld: 'se', suffixes: { AB: 6 }, languages: ['Swedish'] },
  ch: { weight: 0.8, cultures: { german: 60, french: 25, italian: 10, anglo: 5 }, postcode: 'P##', street: 'de', phone: p('41', '0', 9, '76 77 78 79'), tld: 'ch', suffixes: { AG: 4, GmbH: 3, SA: 2 }, languages: ['German', 'French', 'Italian'] },
  ie: { weight: 0.8, cultures: { anglo: 88, slavic: 5, indian: 4, lusophone: 3 }, postcode: 'P @###', street: 'en', phone: p('353', '0', 9, '83 85 86 87'), tld: 'ie', suffixes: { Ltd: 5, Limited: 2, DAC: 1 }, languages: ['English', 'Irish'] },
  sg: { weight: 0.8, cultures: { chinese: 70, indian: 15, anglo: 10, arabic: 5 }, postcode: 'P####', street: 'en', phone: p('65', '', 8, '8 9'), tld: 'sg', suffixes: { 'Pte Ltd': 6, 'Pte. Ltd.': 2 }, languages: ['English', 'Mandarin', 'Malay', 'Tamil'] },
  jp: { weight: 0.8, cultures: { japanese: 97, anglo: 2, korean: 1 }, postcode: 'P-####', street: 'en', phone: p('81', '0', 10, '90 80 70'), tld: 'co.jp', suffixes: { 'K.K.': 3, 'Co., Ltd.': 4 }, languages: ['Japanese'] },
  mx: { weight: 1, cultures: { hispanic: 96, anglo: 2, arabic: 2 }, postcode: 'P###', street: 'es', phone: p('52', '', 10, ''), tld: 'com.mx', suffixes: { 'S.A. de C.V.': 6 }, languages: ['Spanish'] },
  pl: { weight: 0.7, cultures: { slavic: 96, anglo: 2, german: 2 }, postcode: 'P-###', street: 'en', phone: p('48', '', 9, '50 51 60 66 69 78 79'), tld: 'pl', suffixes: { 'Sp. z o.o.': 6, 'S.A.': 1 }, languages: ['Polish'] },
  be: { weight: 0.6, cultures: { dutch: 50, french: 42, arabic: 5, italian: 3 }, postcode: 'P##', street: 'nl', phone: p('32', '0', 8, '47 48 49', 'groups', 9), tld: 'be', suffixes: { BV: 3, NV: 2, SA: 2, SRL: 1 }, languages: ['Dutch', 'French'] },
  dk: { weight: 0.5, cultures: { nordic: 90, german: 3, arabic: 4, anglo: 3 }, postcode: 'P##', street: 'nordic', phone: p('45', '', 8, '2 3 4 5'), tld: 'dk', suffixes: { ApS: 4, 'A/S': 4 }, languages: ['Danish'] },
  no: { weight: 0.4, cultures: { nordic: 92, slavic: 4, anglo: 4 }, postcode: 'P##', street: 'nordic', phone: p('47', '', 8, '4 9'), tld: 'no', suffixes: { AS: 6, ASA: 1 }, languages: ['Norwegian'] },
  fi: { weight: 0.4, cultures: { nordic: 95, slavic: 5 }, postcode: 'P##', street: 'nordic', phone: p('358', '0', 9, '40 44 50'), tld: 'fi', suffixes: { Oy: 6, Oyj: 1 }, languages: ['Finnish', 'Swedish'] },
  at: { weight: 0.5, cultures: { german: 88, slavic: 8, arabic: 2, anglo: 2 }, postcode: 'P##', street: 'de', phone: p('43', '0', 10, '650 660 664 676 699'), tld: 'at', suffixes: { GmbH: 6, AG: 1 }, languages: ['German'] },
  pt: { weight: 0.5, cultures: { lusophone: 94, anglo: 3, african: 3 }, postcode: 'P##-###', street: 'pt', phone: p('351', '', 9, '91 92 93 96'), tld: 'pt', suffixes: { 'Lda.': 5, 'S.A.': 2 }, languages: ['Portuguese'] },
  il: { weight: 0.6, cultures: { slavic: 35, anglo: 35, arabic: 30 }, postcode: 'P#####', street: 'en', phone: p('972', '0', 9, '50 52 54 58'), tld: 'co.il', suffixes: { Ltd: 6, 'Ltd.': 2 }, languages: ['Hebrew', 'Arabic'] },
  ae: { weight: 0.6, cultures: { arabic: 50, indian: 35, anglo: 10, african: 5 }, postcode: '', street: 'en', phone: p('971', '0', 8, '50 52 55 56', 'groups', 9), tld: 'ae', suffixes: { LLC: 4, 'FZ-LLC': 2, FZE: 1 }, languages: ['Arabic'] },
  za: { weight: 0.6, cultures: { african: 55, anglo: 40, indian: 5 }, postcode: 'P##', street: 'en', phone: p('27', '0', 9, '72 82 83 84'), tld: 'co.za', suffixes: { '(Pty) Ltd': 6 }, languages: ['English', 'Afrikaans', 'Zulu'] },
  nz: { weight: 0.4, cultures: { anglo: 88, chinese: 6, indian: 6 }, postcode: 'P##', street: 'en', phone: p('64', '0', 8, '21 22 27', 'groups', 9), tld: 'co.nz', suffixes: { Limited: 5, Ltd: 2 }, languages: ['English', 'Māori'] },
  ar: { weight: 0.5, cultures: { hispanic: 85, italian: 12, anglo: 3 }, postcode: 'P#@@@', street: 'es', phone: p('54', '0', 10, ''), tld: 'com.ar', suffixes: { 'S.A.': 4, 'S.R.L.': 3 }, languages: ['Spanish'] },
  co: { weight: 0.5, cultures: { hispanic: 98, anglo: 2 }, postcode: 'P###', street: 'es', phone: p('57', '', 10, '300 310 311 315 320'), tld: 'com.co', suffixes: { 'S.A.S.': 6, 'S.A.': 1 }, languages: ['Spanish'] },
  cl: { weight: 0.4, cultures: { hispanic: 95, german: 3, anglo: 2 }, postcode: 'P#####', street: 'es', phone: p('56', '', 9, '9'), tld: 'cl', suffixes: { SpA: 4, 'S.A.': 2 }, languages: ['Spanish'] },
  cn: { weight: 0.6, cultures: { chinese: 98, anglo: 2 }, postcode: 'P###', street: 'en', phone: p('86', '0', 10, '13 15 18', 'groups', 11), tld: 'cn', suffixes: { 'Co., Ltd.': 6 }, languages: ['Mandarin', 'Cantonese'] },
  kr: { weight: 0.4, cultures: { korean: 98, anglo: 2 }, postcode: 'P###', street: 'en', phone: p('82', '0', 9, '10', 'groups', 10), tld: 'co.kr', suffixes: { 'Co., Ltd.': 4, 'Inc.': 2 }, languages: ['Korean'] },
  ph: { weight: 0.5, cultures: { hispanic: 60, anglo: 35, chinese: 5 }, postcode: 'P##', street: 'en', phone: p('63', '0', 9, '917 918 920 927', 'groups', 10), tld: 'ph', suffixes: { 'Inc.': 5, Corporation: 2 }, languages: ['Filipino', 'English'] },
  ng: { weight: 0.5, cultures: { african: 96, arabic: 4 }, postcode: 'P###', street: 'en', phone: p('234', '0', 8, '803 805 806 813', 'groups', 10), tld: 'ng', suffixes: { Ltd: 4, Limited: 3, Plc: 1 }, languages: ['English', 'Yoruba', 'Igbo', 'Hausa'] },
  ke: { weight: 0.3, cultures: { african: 95, indian: 5 }, postcode: 'P###', street: 'en', phone: p('254', '0', 9, '7'), tld: 'co.ke', suffixes: { Ltd: 4, Limited: 3 }, languages: ['English', 'Swahili'] },
  eg: { weight: 0.3, cultures: { arabic: 100 }, postcode: 'P###', street: 'en', phone: p('20', '0', 9, '10 11 12', 'groups', 10), tld: 'com.eg', suffixes: { 'S.A.E.': 4, LLC: 2 }, languages: ['Arabic'] },
  tr: { weight: 0.5, cultures: { arabic: 60, slavic: 20, anglo: 20 }, postcode: 'P###', street: 'en', phone: p('90', '0', 10, '5'), tld: 'com.tr', suffixes: { 'A.Ş.': 4, 'Ltd. Şti.': 3 }, languages: ['Turkish'] },
};

/** Total weight given to the rest of the catalog's countries (each gets an equal share). */
export const TAIL_WEIGHT = 1.5;

/** Cultures used for a country without a profile. */
export const TAIL_CULTURES: Partial<Record<CultureName, number>> = { anglo: 30, hispanic: 15, arabic: 15, african: 15, slavic: 10, indian: 5, chinese: 5, french: 5 };
