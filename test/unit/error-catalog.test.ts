import { readFileSync } from 'node:fs';
import { ERROR_CATALOG, SPEC_ERROR_CODES, WARNING_CODES } from '../../src/domain/errors/index.js';
import { specPath } from '../helpers/paths.js';

/** The error catalog must match the spec's Errors table exactly (code and status), and list every warning code. */
describe('error catalog matches the spec', () => {
  const spec = readFileSync(specPath(), 'utf8');
  const section = spec.slice(spec.indexOf('## Errors'), spec.indexOf('## Limits'));
  const rows = [...section.matchAll(/^\| `([a-z_]+\.[a-z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])] as const);

  it('parses the spec table', () => {
    expect(rows.length).toBe(SPEC_ERROR_CODES.length);
  });

  it.each(rows)('%s answers %d', (code, status) => {
    expect(ERROR_CATALOG).toHaveProperty([code]);
    expect(ERROR_CATALOG[code as keyof typeof ERROR_CATALOG].status).toBe(status);
  });

  it('has no spec code the spec does not list', () => {
    const specCodes = new Set(rows.map((r) => r[0]));
    for (const code of SPEC_ERROR_CODES) expect(specCodes.has(code)).toBe(true);
  });

  it('lists every warning code of the spec', () => {
    const line = section.slice(section.indexOf('Warning codes'));
    const codes = [...line.split('\n')[0]!.replace(/\([^)]*\)/g, '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
    expect([...WARNING_CODES].sort()).toEqual([...new Set(codes)].sort());
  });
});
