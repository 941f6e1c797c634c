import type { Rng } from './rng.js';
import type { PhonePlan } from './vocab/countries.js';

/**
 * Phone numbers in the many shapes sources deliver them ("+1 (415) 555-0132", "+44 20 7946 0958",
 * "0049 30 1234567"). The digits come first, so one number can be printed in several forms.
 */

export interface NationalNumber {
  /** National significant number: area code (or mobile prefix) followed by subscriber digits. */
  digits: string;
  /** Length of the area code or mobile prefix at the start of `digits`. */
  prefixLength: number;
}

export function nationalNumber(rng: Rng, plan: PhonePlan, area: string, mobile: boolean): NationalNumber {
  if (plan.style === 'nanp') return { digits: area + rng.range(2, 9) + rng.digits(6), prefixLength: 3 };
  const prefix = mobile && plan.mobile.length > 0 ? rng.pick(plan.mobile) : area;
  const length = mobile ? (plan.mobileNsn ?? plan.nsn) : plan.nsn;
  const sub = Math.max(4, length - prefix.length);
  return { digits: prefix + rng.range(2, 9) + rng.digits(sub - 1), prefixLength: prefix.length };
}

/** Splits subscriber digits the way they are usually printed: 3s, with 4 at the end when it fits. */
function group(s: string): string {
  if (s.length <= 4) return s;
  if (s.length === 6) return `${s.slice(0, 3)} ${s.slice(3)}`;
  if (s.length <= 8) return `${s.slice(0, s.length - 4)} ${s.slice(s.length - 4)}`;
  return `${s.slice(0, 3)} ${group(s.slice(3))}`;
}

function pairs(s: string, sep: string): string {
  let out = s[0]!;
  for (let i = 1; i < s.length; i += 2) out += sep + s.slice(i, i + 2);
  return out;
}

function nanp(rng: Rng, n: string): string {
  const a = n.slice(0, 3),
    b = n.slice(3, 6),
    c = n.slice(6);
  const f = rng.int(100);
  if (f < 30) return `+1 (${a}) ${b}-${c}`;
  if (f < 50) return `(${a}) ${b}-${c}`;
  if (f < 70) return `${a}-${b}-${c}`;
  if (f < 80) return `+1 ${a} ${b} ${c}`;
  if (f < 90) return `+1${n}`;
  if (f < 95) return `${a}.${b}.${c}`;
  return `1-${a}-${b}-${c}`;
}

/** Prints a national number in one of the usual forms. */
export function formatPhone(rng: Rng, plan: PhonePlan, num: NationalNumber): string {
  const n = num.digits,
    prefixLength = num.prefixLength;
  if (plan.style === 'nanp') return nanp(rng, n);
  const cc = plan.dial,
    t = plan.trunk;
  const f = rng.int(100);
  if (plan.style === 'pairs') {
    if (f < 40) return `+${cc} ${pairs(n, ' ')}`;
    if (f < 70) return `${t}${pairs(n, ' ')}`;
    if (f < 85) return `+${cc}${n}`;
    if (f < 93) return `00${cc} ${pairs(n, ' ')}`;
    return `${t}${pairs(n, '.')}`;
  }
  const prefix = n.slice(0, prefixLength),
    sub = n.slice(prefixLength);
  if (f < 40) return `+${cc} ${prefix} ${group(sub)}`;
  if (f < 55) return `+${cc}${n}`;
  if (f < 80) return `${t}${prefix} ${group(sub)}`;
  if (f < 90) return `00${cc} ${prefix} ${sub}`;
  if (f < 95 && t) return `(${t}${prefix}) ${group(sub)}`;
  if (t) return `+${cc} (${t})${prefix} ${group(sub)}`;
  return `+${cc} ${prefix} ${sub}`;
}
