import type { Rng } from './rng.js';
import type { StreetStyle } from './vocab/countries.js';
import {
  DE_STREET_TYPES,
  EN_STREET_TYPES,
  ES_STREET_TYPES,
  FR_STREET_TYPES,
  IT_STREET_TYPES,
  NL_STREET_TYPES,
  PT_STREET_TYPES,
  STREET_NAMES,
} from './vocab/streets.js';

const LETTERS = 'ABCDEFGHJKLMNPRSTUVWXY';

/** Street line in the local convention: "500 Howard Street, Suite 400", "Friedrichstraße 68", "12 rue de Rivoli". */
export function street(rng: Rng, style: StreetStyle): string {
  const name = rng.pick(STREET_NAMES[style]);
  const no = rng.int(10) < 7 ? rng.range(1, 199) : rng.range(200, 2999);
  switch (style) {
    case 'en': {
      const line = `${no} ${name} ${rng.pick(EN_STREET_TYPES)}`;
      const unit = rng.int(10);
      if (unit < 3) return `${line}, Suite ${rng.range(1, 30) * 100 + rng.range(0, 20)}`;
      if (unit < 4) return `${line}, Floor ${rng.range(2, 40)}`;
      return line;
    }
    case 'de':
      return `${name}${rng.pick(DE_STREET_TYPES)} ${no % 180}`;
    case 'nl':
      return `${name}${rng.pick(NL_STREET_TYPES)} ${no % 300}`;
    case 'fr':
      return `${no % 150} ${rng.pick(FR_STREET_TYPES)} ${name}`;
    case 'es':
      return `${rng.pick(ES_STREET_TYPES)} ${name}, ${no % 200}`;
    case 'pt':
      return `${rng.pick(PT_STREET_TYPES)} ${name}, ${no}`;
    case 'it':
      return `${rng.pick(IT_STREET_TYPES)} ${name}, ${no % 200}`;
    case 'nordic':
      return `${name} ${no % 120}`;
  }
}

/** Postcode from a pattern: P = the city's prefix, # = digit, @ = letter. Null when the country has none. */
export function postcode(rng: Rng, pattern: string, prefix: string): string | null {
  if (!pattern) return null;
  let out = '';
  for (const ch of pattern) {
    if (ch === 'P') out += prefix;
    else if (ch === '#') out += rng.int(10);
    else if (ch === '@') out += LETTERS[rng.int(LETTERS.length)];
    else out += ch;
  }
  return out;
}
