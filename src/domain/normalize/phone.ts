/**
 * E.164 form (`+` and 8-15 digits) of a phone number written with spaces, dots, dashes, parentheses,
 * a leading `+` or `00`, or as a `tel:` link. Without an international prefix only North American
 * numbers are recognised (10 digits, or 11 starting with 1); anything else is undefined.
 */
export function normalizePhone(input: string): string | undefined {
  if (input.length > 64) return undefined;
  // tel: parameters (;ext=, ;phone-context=) are not part of the number.
  let s = input.trim().replace(/^tel:/i, '').split(';', 1)[0]!.trim();
  if (!/^\+?[\d\s.()-]+$/.test(s)) return undefined;
  const international = s.startsWith('+') || /^\(?00/.test(s);
  // "+44 (0)20 ..." writes the national trunk 0 that is dropped when dialling from abroad.
  if (international) s = s.replace(/\(0\)/, '');
  let digits = s.replace(/\D/g, '');
  if (international) {
    if (!s.startsWith('+')) digits = digits.slice(2);
    return /^[1-9]\d{7,14}$/.test(digits) ? `+${digits}` : undefined;
  }
  // NANP area codes start with 2-9; a 10-digit number starting 0 or 1 is some other country's national form.
  if (/^[2-9]\d{9}$/.test(digits)) return `+1${digits}`;
  if (/^1[2-9]\d{9}$/.test(digits)) return `+${digits}`;
  return undefined;
}
