import { Rng } from '../../loaders/generate/rng.js';
import { LEGAL_SUFFIXES } from '../../src/domain/normalize/company-name.js';
import { isHostname } from '../../src/domain/normalize/hostname.js';
import {
  classifyEnrichInput,
  emailDomain,
  industrySlug,
  networkProfileUrl,
  normalizeCompanyName,
  normalizeCountry,
  normalizeDomain,
  normalizePhone,
  parseEmail,
  parseNetworkUrl,
} from '../../src/domain/normalize/index.js';
import { lowerText } from '../../src/domain/text/lower.js';

const HOST = 'network.com';

/** Inputs no normalizer may throw on. */
const HOSTILE: readonly string[] = [
  '',
  '   ',
  '\t\n',
  '\u0000',
  '\u200b',
  '😀',
  'ü',
  '%',
  '%E0%A4%A',
  '@',
  '<>',
  'a'.repeat(100_000),
  '+'.repeat(10_000),
  '1'.repeat(10_000),
  `${'a'.repeat(5_000)}@${'b.'.repeat(5_000)}com`,
  '. '.repeat(10_000),
];

describe('normalizeCountry', () => {
  it.each([
    ['us', 'us'],
    ['US', 'us'],
    ['USA', 'us'],
    ['United States', 'us'],
    ['  united-states  ', 'us'],
    ['United States of America', 'us'],
    ['U.S.A.', 'us'],
    ['gb', 'gb'],
    ['UK', 'gb'],
    ['England', 'gb'],
    ['Deutschland', 'de'],
    ['DEU', 'de'],
    ['South Korea', 'kr'],
    ['Korea, Republic of', 'kr'],
    ['Russian Federation', 'ru'],
    ['Iran, Islamic Republic of', 'ir'],
    ['Czech Republic', 'cz'],
    ['czechia', 'cz'],
    ['Curaçao', 'cw'],
    ['Curacao', 'cw'],
    ['Cote d’Ivoire', 'ci'],
    ['St. Kitts & Nevis', 'kn'],
    ['The Netherlands', 'nl'],
    ['Kosovo', 'xk'],
  ])('%j -> %s', (input, slug) => {
    expect(normalizeCountry(input)).toBe(slug);
  });

  it.each(['', ' ', 'xx', 'Atlantis', 'u', 'United', 'us us'])('%j is unknown', (input) => {
    expect(normalizeCountry(input)).toBeUndefined();
  });
});

describe('normalizeDomain', () => {
  it.each([
    ['acme.com', 'acme.com'],
    ['https://www.Acme.com/about?x=1', 'acme.com'],
    ['acme.co.uk', 'acme.co.uk'],
    ['http://user:secret@acme.com:8080/path#top', 'acme.com'],
    ['WWW.ACME.COM.', 'acme.com'],
    ['//acme.com/x', 'acme.com'],
    ['acme.com?utm=1', 'acme.com'],
    ['shop.acme.com', 'shop.acme.com'],
    ['www.com', 'www.com'],
    ['  acme.io  ', 'acme.io'],
    ['münchen.de', 'xn--mnchen-3ya.de'],
  ])('%j -> %s', (input, domain) => {
    expect(normalizeDomain(input)).toBe(domain);
  });

  it.each([
    '',
    'acme',
    'Acme Inc',
    'ac me.com',
    'acme..com',
    '-acme.com',
    'acme_corp.com',
    '192.168.0.1',
    'https://',
    'http://[::1]/',
    `${'a'.repeat(64)}.com`,
  ])('%j is not a domain', (input) => {
    expect(normalizeDomain(input)).toBeUndefined();
  });
});

describe('hostnames and bare domains (seeded random strings)', () => {
  /** The DNS rules as regular expressions, the definition the one-pass check must agree with. */
  const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
  const byRules = (host: string): boolean => {
    const labels = host.split('.');
    return (
      host.length <= 253 && labels.length > 1 && labels.every((l) => LABEL.test(l)) && !/^\d+$/.test(labels.at(-1)!)
    );
  };
  const rng = new Rng(35);
  const pick = (chars: string): string => chars[rng.int(chars.length)]!;
  /** Mostly hostname characters, some of which break the rules (capitals, `_`, a non-ASCII letter, an empty label). */
  const candidate = (): string => {
    const labels = Array.from({ length: 1 + rng.int(4) }, () => {
      const long = rng.int(20) === 0;
      const size = long ? 60 + rng.int(8) : rng.int(9);
      return Array.from({ length: size }, () =>
        rng.int(25) === 0 ? pick('A_ü.') : pick('abcdefghijklmnopqrstuvwxyz0123456789--'),
      ).join('');
    });
    const host = labels.join('.');
    return rng.int(10) === 0 ? `www.${host}` : host;
  };
  const hosts = Array.from({ length: 20_000 }, candidate);

  it('isHostname agrees with the DNS rules', () => {
    const mismatches = hosts.filter((h) => isHostname(h) !== byRules(h));
    expect(mismatches).toEqual([]);
    // Both kinds are well represented, so the agreement is not one of rejecting everything.
    expect(hosts.filter(byRules).length).toBeGreaterThan(2_000);
    expect(hosts.filter((h) => !byRules(h)).length).toBeGreaterThan(2_000);
    expect(isHostname(`${'a.'.repeat(126)}io`)).toBe(false);
    expect(isHostname(`${'a.'.repeat(125)}io`)).toBe(true);
  });

  it('a domain sent bare normalizes as the same domain sent in a URL and in capitals', () => {
    for (const host of hosts) {
      const bare = normalizeDomain(host);
      expect([host, normalizeDomain(`https://${host}/about?x=1`)]).toEqual([host, bare]);
      expect([host, normalizeDomain(host.toUpperCase())]).toEqual([host, bare]);
      if (bare !== undefined) expect(normalizeDomain(bare)).toBe(bare);
    }
  });
});

describe('normalizeCompanyName', () => {
  it.each([
    ['The Acme Company, Inc.', 'acme company'],
    ['ACME  Corp', 'acme'],
    ['Foo Pty Ltd', 'foo'],
    ['Inc.', ''],
    ['Acme Inc Inc', 'acme inc'],
    ['The', 'the'],
    ['  Acme\t\nWidgets  ', 'acme widgets'],
    ['Acme,Inc', 'acme'],
    ['Acme , LLC', 'acme'],
    ['Acme L.L.C.', 'acme'],
    ['Siemens AG', 'siemens'],
    ['Acme S.A.', 'acme'],
    ['Acme B.V.', 'acme'],
    ['Acme GmbH', 'acme'],
    ['Acme Co.', 'acme'],
    ['Costco', 'costco'],
    ['Incorporated Acme', 'incorporated acme'],
    ['Theranos', 'theranos'],
    ['Société Générale SA', 'société générale'],
    ['', ''],
    ['   ', ''],
  ])('%j -> %j', (input, name) => {
    expect(normalizeCompanyName(input)).toBe(name);
  });
});

describe('normalizeCompanyName against the spec steps (seeded random names)', () => {
  /** The steps one at a time: a legal suffix (longest first) goes when a space, a comma or nothing comes before it. */
  const bySteps = (input: string): string => {
    let name = lowerText(input).replace(/\s+/g, ' ').trim();
    for (const suffix of [...LEGAL_SUFFIXES].sort((a, b) => b.length - a.length)) {
      if (!name.endsWith(suffix)) continue;
      const before = name.slice(0, name.length - suffix.length);
      if (before === '' || /[\s,]$/.test(before)) {
        name = before.replace(/[\s,]+$/, '').trim();
        break;
      }
    }
    return name.replace(/^the /, '');
  };
  const rng = new Rng(37);
  const WORDS = [
    ...LEGAL_SUFFIXES,
    'the',
    'The',
    'pty',
    'Acme',
    'INC',
    'Ltd.',
    'co',
    'xinc',
    'incx',
    'société',
    'ÆON',
    'a',
  ];
  const SEPARATORS = [' ', ' ', ' ', ',', ', ', ' , ', '  ', '\t', '\u00a0', '\n', ''];
  const names = Array.from({ length: 20_000 }, () =>
    Array.from({ length: 1 + rng.int(4) }, () => rng.pick(WORDS) + rng.pick(SEPARATORS)).join(rng.pick(SEPARATORS)),
  );

  it('agrees with lowercasing, collapsing, stripping one suffix and a leading "the "', () => {
    const mismatches = names.filter((n) => normalizeCompanyName(n) !== bySteps(n));
    expect(mismatches).toEqual([]);
    // Names with a suffix stripped and names without are both well represented.
    const stripped = names.filter((n) => bySteps(n) !== lowerText(n).replace(/\s+/g, ' ').trim().replace(/^the /, ''));
    expect(stripped.length).toBeGreaterThan(3000);
    expect(names.length - stripped.length).toBeGreaterThan(3000);
  });
});

describe('industrySlug', () => {
  it.each([
    ['software_development', 'software_development'],
    ['Software Development', 'software_development'],
    ['SOFTWARE-DEVELOPMENT', 'software_development'],
    ['IT Services & IT Consulting', 'it_services_and_it_consulting'],
    ['Media and Telecommunications', 'media_and_telecommunications'],
    ['Bars, Taverns & Nightclubs', 'bars_taverns_and_nightclubs'],
    ['Computer Software', 'software_development'],
    ['Hospital and Health Care', 'hospitals_and_health_care'],
    ["Women's Handbag Manufacturing", 'womens_handbag_manufacturing'],
    ['Non-profit Organizations', 'non_profit_organizations'],
  ])('%j -> %s', (input, slug) => {
    expect(industrySlug(input)).toBe(slug);
  });

  it.each(['', 'Underwater Basket Weaving', 'and', '&'])('%j is unknown', (input) => {
    expect(industrySlug(input)).toBeUndefined();
  });
});

describe('parseEmail and emailDomain', () => {
  it.each([
    ['jane@acme.com', 'jane@acme.com'],
    ['  Jane@Acme.COM ', 'jane@acme.com'],
    ['mailto:jane@acme.com', 'jane@acme.com'],
    ['MAILTO:Jane@Acme.com?subject=hi', 'jane@acme.com'],
    ['Jane Doe <Jane@Acme.com>', 'jane@acme.com'],
    ['"Doe, Jane" <jane@acme.com>', 'jane@acme.com'],
    ['<mailto:jane@acme.com>', 'jane@acme.com'],
    ['jane.doe+news@mail.acme.co.uk', 'jane.doe+news@mail.acme.co.uk'],
  ])('%j -> %s', (input, email) => {
    expect(parseEmail(input)).toBe(email);
  });

  it.each([
    '',
    'jane',
    'jane@acme',
    'jane@@acme.com',
    'ja ne@acme.com',
    'a@b@c.com',
    '@acme.com',
    'jane@',
    '.jane@acme.com',
    'ja..ne@acme.com',
    'jane@acme..com',
    'Jane <jane@acme.com',
    'https://acme.com',
    `${'a'.repeat(65)}@acme.com`,
  ])('%j is not an email', (input) => {
    expect(parseEmail(input)).toBeUndefined();
  });

  it.each([
    ['jane@acme.com', 'acme.com'],
    ['a@sub.acme.co.uk', 'sub.acme.co.uk'],
    ['no-at-sign', ''],
  ])('emailDomain(%j) = %j', (email, domain) => {
    expect(emailDomain(email)).toBe(domain);
  });
});

describe('normalizePhone', () => {
  it.each([
    ['+1 (201) 555-0123', '+12015550123'],
    ['+44 20 7946 0958', '+442079460958'],
    ['+44 (0)20 7946 0958', '+442079460958'],
    ['0044 20 7946 0958', '+442079460958'],
    ['tel:+49-30-1234567', '+49301234567'],
    ['tel:+1-201-555-0123;ext=12', '+12015550123'],
    ['201.555.0123', '+12015550123'],
    ['(201) 555-0123', '+12015550123'],
    ['2015550123', '+12015550123'],
    ['1-201-555-0123', '+12015550123'],
    ['+33 1 23 45 67 89', '+33123456789'],
  ])('%j -> %s', (input, phone) => {
    expect(normalizePhone(input)).toBe(phone);
  });

  it.each([
    '',
    '+',
    '555-0123',
    '020 7946 0958',
    '0201234567',
    '1201555012',
    '+1234567',
    '+1234567890123456',
    '+0 201 555 0123',
    '201-555-0123 x12',
    '+1 201 555 O123',
    '+1 201 555 0123 ext. 4',
    '++12015550123',
    '+1 201 + 5550123',
    '２０１５５５０１２３',
  ])('%j is not a phone', (input) => {
    expect(normalizePhone(input)).toBeUndefined();
  });
});

describe('parseNetworkUrl and networkProfileUrl', () => {
  it.each([
    [`https://www.${HOST}/in/jane-doe`, 'person', 'jane-doe'],
    [`http://${HOST}/in/Jane-Doe/`, 'person', 'jane-doe'],
    [`https://uk.${HOST}/in/jane?trk=abc#x`, 'person', 'jane'],
    [`www.${HOST}/in/jane`, 'person', 'jane'],
    [`https://www.${HOST}/in/j%C3%A9r%C3%B4me`, 'person', 'jérôme'],
    [`HTTPS://WWW.NETWORK.COM/IN/JANE`, 'person', 'jane'],
    [`https://www.${HOST}/company/acme/`, 'company', 'acme'],
    [`https://www.${HOST}/posts/jane_launch-123`, 'post', 'jane_launch-123'],
    [`https://www.${HOST}/feed/update/urn:li:activity:7123456789/`, 'activity', '7123456789'],
    [`https://www.${HOST}/feed/update/urn%3Ali%3Aactivity%3A42`, 'activity', '42'],
  ])('%s -> %s %s', (input, kind, slug) => {
    expect(parseNetworkUrl(input, HOST)).toEqual({ kind, slug });
  });

  it.each([
    'https://other.com/in/jane',
    `https://www.${HOST}.evil.com/in/jane`,
    `https://evil${HOST}/in/jane`,
    `https://abc.${HOST}/in/jane`,
    `https://a.b.${HOST}/in/jane`,
    `ftp://${HOST}/in/jane`,
    `https://${HOST}:8443/in/jane`,
    `https://user@${HOST}/in/jane`,
    `https://www.${HOST}/in/`,
    `https://www.${HOST}/in/jane/details`,
    `https://www.${HOST}/school/mit`,
    `https://www.${HOST}/in/%E0%A4%A`,
    `https://www.${HOST}/in/a%20b`,
    `https://www.${HOST}/feed/update/urn:li:share:123`,
    `https://www.${HOST}/feed/update/urn:li:activity:12ab`,
    `https://www.${HOST}/in/jane doe`,
    'jane@acme.com',
  ])('%s is not a network URL', (input) => {
    expect(parseNetworkUrl(input, HOST)).toBeUndefined();
  });

  it.each([
    ['person', 'jane-doe', HOST, `https://www.${HOST}/in/jane-doe`],
    ['company', 'acme', `www.${HOST}`, `https://www.${HOST}/company/acme`],
    ['person', 'jérôme', HOST, `https://www.${HOST}/in/j%C3%A9r%C3%B4me`],
  ] as const)('%s %s on %s -> %s, and parses back', (kind, slug, host, url) => {
    expect(networkProfileUrl(kind, slug, host)).toBe(url);
    expect(parseNetworkUrl(url, HOST)).toEqual({ kind, slug });
  });
});

describe('classifyEnrichInput', () => {
  it.each([
    ['Jane Doe <Jane@Acme.com>', { kind: 'email', value: 'jane@acme.com' }],
    [`https://www.${HOST}/in/Jane-Doe/`, { kind: 'network', value: 'jane-doe' }],
    ['+1 (201) 555-0123', { kind: 'phone', value: '+12015550123' }],
    ['tel:2015550123', { kind: 'phone', value: '+12015550123' }],
    [`https://www.${HOST}/company/acme`, { kind: 'invalid' }],
    [`https://www.${HOST}/posts/abc`, { kind: 'invalid' }],
    ['https://other.com/in/jane', { kind: 'invalid' }],
    ['Jane Doe', { kind: 'invalid' }],
    ['', { kind: 'invalid' }],
  ])('%j -> %j', (input, expected) => {
    expect(classifyEnrichInput(input, HOST)).toEqual(expected);
  });
});

describe('hostile inputs never throw', () => {
  it.each(HOSTILE.map((s) => [s.length > 40 ? `${s.slice(0, 20)}… (${s.length} chars)` : JSON.stringify(s), s]))(
    '%s',
    (_name, input) => {
      expect(typeof normalizeCompanyName(input)).toBe('string');
      expect(typeof emailDomain(input)).toBe('string');
      for (const result of [
        normalizeCountry(input),
        normalizeDomain(input),
        industrySlug(input),
        parseEmail(input),
        normalizePhone(input),
        parseNetworkUrl(input, HOST),
      ]) {
        expect(result).toBeUndefined();
      }
      expect(classifyEnrichInput(input, HOST)).toEqual({ kind: 'invalid' });
    },
  );

  it('a profile URL with a long malformed escape is invalid, its domain still reads', () => {
    const input = `https://www.${HOST}/in/${'%'.repeat(5_000)}`;
    expect(parseNetworkUrl(input, HOST)).toBeUndefined();
    expect(classifyEnrichInput(input, HOST)).toEqual({ kind: 'invalid' });
    expect(normalizeDomain(input)).toBe(HOST);
  });
});
