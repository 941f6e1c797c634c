import { isPublicAddress } from '../../src/operations/enrichment-upload/address-guard.js';
import { fetchSheet } from '../../src/operations/enrichment-upload/fetch-sheet.js';

describe('spreadsheet links: the addresses a server-side fetch may reach', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.100.100.200',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '64:ff9b::10.0.0.1',
    '::7f00:1',
    '::127.0.0.1',
    '::ffff:0:7f00:1',
    '64:ff9b:1::a00:1',
    '2002:7f00:1::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    'not-an-ip',
  ])('refuses %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(['8.8.8.8', '93.184.216.34', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('accepts %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it('lets the test-only allow-list through, and nothing else', () => {
    expect(isPublicAddress('127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(isPublicAddress('::ffff:127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(isPublicAddress('127.0.0.2', ['127.0.0.1'])).toBe(false);
  });
});

describe('spreadsheet links: names are judged by what they resolve to', () => {
  it.each(['http://localhost:9/sheet.csv', 'https://localhost/sheet.csv'])(
    'refuses %s (resolves to loopback)',
    async (url) => {
      await expect(fetchSheet(url, { maxBytes: 1000, timeoutMs: 2000, allow: [] })).rejects.toMatchObject({
        code: 'upload.url_refused',
      });
    },
  );
});
