import { AppError } from '../../src/domain/errors/index.js';
import {
  isOptOutType,
  normalizeOptOut,
  OPT_OUT_TYPES,
  type OptOutType,
  optOutAfter,
  optOutKey,
  parseOptOutKey,
  sha256Of,
} from '../../src/domain/optouts.js';

const HOST = 'network.com';
const value = (type: OptOutType, raw: string, host = HOST) => {
  const r = normalizeOptOut(type, raw, host);
  return r.ok ? r.entry.value : undefined;
};
const reason = (type: OptOutType, raw: string) => {
  const r = normalizeOptOut(type, raw, HOST);
  return r.ok ? undefined : r.reason;
};

describe('normalizeOptOut', () => {
  it.each<[OptOutType, string, string]>([
    ['email', ' Jane.Doe@ACME.com ', 'jane.doe@acme.com'],
    ['email', 'mailto:jane@acme.com', 'jane@acme.com'],
    ['email', 'Jane Doe <Jane@Acme.com>', 'jane@acme.com'],
    ['email', 'someone+tag@gmail.com', 'someone+tag@gmail.com'],
    ['phone', '+1 (415) 555-0100', '+14155550100'],
    ['phone', '415.555.0100', '+14155550100'],
    ['phone', '1-415-555-0100', '+14155550100'],
    ['phone', '0044 20 7946 0958', '+442079460958'],
    ['phone', '+44 (0)20 7946 0958', '+442079460958'],
    ['phone', 'tel:+33142685300;ext=12', '+33142685300'],
    ['url', 'https://www.network.com/in/Jane-Doe/', 'jane-doe'],
    ['url', 'network.com/in/jane-doe?trk=feed', 'jane-doe'],
    ['url', 'http://uk.network.com/in/J%C3%B6rg-M', 'jörg-m'],
    ['url', 'Jane-Doe', 'jane-doe'],
    ['url', ' J%C3%B6rg-M ', 'jörg-m'],
    ['url', 'jörg', 'jörg'],
    ['url', 'jane.doe', 'jane.doe'],
    ['id', ' per_00aZ9 ', 'per_00aZ9'],
    ['id', 'per_a-b_c', 'per_a-b_c'],
    ['sha256', sha256Of('jane@acme.com').toUpperCase(), sha256Of('jane@acme.com')],
    ['sha256', ` ${'0'.repeat(64)}\t`, '0'.repeat(64)],
  ])('%s %j -> %j', (type, raw, want) => {
    expect(normalizeOptOut(type, raw, HOST)).toEqual({ ok: true, entry: { type, value: want } });
  });

  it.each<[OptOutType, string, RegExp]>([
    ['email', '', /empty/],
    ['email', '   ', /empty/],
    ['email', 'jane', /not an email/],
    ['email', 'jane@localhost', /not an email/],
    ['email', 'a@b@c.com', /not an email/],
    ['email', 'jörg@müller.de', /not an email/],
    ['phone', '12345', /not a phone/],
    ['phone', '020 7946 0958', /not a phone/],
    ['phone', 'call me', /not a phone/],
    ['phone', '+0 123 456 789', /not a phone/],
    ['url', 'https://www.network.com/company/acme', /company URL/],
    ['url', 'https://www.network.com/posts/abc', /post URL/],
    ['url', 'https://other.com/in/jane', /not a person profile URL on network\.com/],
    ['url', 'https://www.network.com/in/', /not a person profile/],
    ['url', 'in/jane', /not a person profile/],
    ['url', 'jane doe', /not a person profile/],
    ['url', 'ftp://network.com/in/jane', /not a person profile/],
    ['url', '%E0%A4%A', /not a person profile/],
    ['id', 'acc_123', /not a contact id/],
    ['id', 'PER_123', /not a contact id/],
    ['id', 'per_', /not a contact id/],
    ['id', 'per_a b', /not a contact id/],
    ['id', `per_${'x'.repeat(200)}`, /at most 128/],
    ['sha256', 'a'.repeat(63), /not a SHA-256/],
    ['sha256', 'a'.repeat(65), /not a SHA-256/],
    ['sha256', `0x${'a'.repeat(64)}`, /not a SHA-256/],
    ['sha256', `${'a'.repeat(63)}g`, /not a SHA-256/],
    ['sha256', 'jane@acme.com', /not a SHA-256/],
  ])('refuses %s %j', (type, raw, why) => {
    expect(reason(type, raw)).toMatch(why);
  });

  it('reads profile URLs of the configured host only', () => {
    expect(value('url', 'https://www.example.org/in/jane', 'example.org')).toBe('jane');
    expect(value('url', 'https://www.network.com/in/jane', 'example.org')).toBeUndefined();
  });

  it('never throws on hostile input, and every accepted value is normalized again to itself', () => {
    const hostile = [
      '\u0000',
      '\u200b',
      '😀',
      '%',
      '@',
      '<>',
      ':',
      'a'.repeat(100_000),
      '+'.repeat(10_000),
      '1'.repeat(10_000),
      `${'a'.repeat(5_000)}@${'b.'.repeat(5_000)}com`,
    ];
    for (const type of OPT_OUT_TYPES) {
      for (const raw of hostile) {
        const r = normalizeOptOut(type, raw, HOST);
        if (r.ok) expect(normalizeOptOut(type, r.entry.value, HOST)).toEqual(r);
      }
    }
  });
});

describe('sha256Of', () => {
  it('hashes the UTF-8 bytes of the normalized form, as hex (vectors computed outside the project)', () => {
    expect(sha256Of('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Of('jane@acme.com')).toBe('7bb9e30283184c3b4bbbf2262a600be7165d7e6f50e424a611aa64394e7ecdb5');
    expect(sha256Of('+14155550100')).toBe('40d3f4e02db27d66cf4cfdda506c2c945f115a7955cc8491dda98ce5beabcda0');
    expect(sha256Of('jörg@müller.de')).toBe('3d290dd2ff58e31ac44fab39a45ff16204558a1eb2aed12ac098a1daf4735779');
  });

  it('a hash of the normalized email or phone is accepted as a sha256 entry unchanged', () => {
    const h = sha256Of(value('email', ' Jane@ACME.com ')!);
    expect(h).toBe('7bb9e30283184c3b4bbbf2262a600be7165d7e6f50e424a611aa64394e7ecdb5');
    expect(value('sha256', h)).toBe(h);
  });
});

describe('entry keys and cursors', () => {
  it('round-trips keys, values with colons included', () => {
    for (const entry of [
      { type: 'url' as const, value: 'a:b' },
      { type: 'email' as const, value: 'x@y.com' },
      { type: 'sha256' as const, value: 'f'.repeat(64) },
    ]) {
      expect(parseOptOutKey(optOutKey(entry))).toEqual(entry);
    }
    expect(parseOptOutKey('nope')).toBeUndefined();
    expect(parseOptOutKey('mail:x@y.com')).toBeUndefined();
    expect(parseOptOutKey('email:')).toBeUndefined();
  });

  it('accepts a null cursor and refuses a malformed one with request.invalid on cursor', () => {
    expect(optOutAfter(null)).toBeNull();
    expect(optOutAfter(undefined)).toBeNull();
    expect(optOutAfter('id:per_1')).toBe('id:per_1');
    let err: unknown;
    try {
      optOutAfter('garbage');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect([(err as AppError).code, (err as AppError).field]).toEqual(['request.invalid', 'cursor']);
  });

  it('knows its types', () => {
    expect(OPT_OUT_TYPES.filter(isOptOutType)).toEqual(['id', 'email', 'phone', 'url', 'sha256']);
    expect(isOptOutType('hash')).toBe(false);
    expect(isOptOutType(1)).toBe(false);
  });
});
