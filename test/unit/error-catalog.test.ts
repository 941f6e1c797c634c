import {
  ADDED_WARNING_CODES,
  ERROR_CATALOG,
  SPEC_ERROR_CODES,
  SPEC_WARNING_CODES,
  WARNING_CODES,
} from '../../src/domain/errors/index.js';
import { contractFixture } from '../helpers/paths.js';

interface ContractErrors {
  errors: Record<string, number>;
  warnings: string[];
}

/** The error catalog must match the contract's Errors table exactly (code and status), and list every warning code. */
describe('error catalog matches the contract', () => {
  const contract = contractFixture<ContractErrors>('errors.json');
  const rows = Object.entries(contract.errors);

  it('holds the whole contract table', () => {
    expect(rows.length).toBe(SPEC_ERROR_CODES.length);
  });

  it.each(rows)('%s answers %d', (code, status) => {
    expect(ERROR_CATALOG).toHaveProperty([code]);
    expect(ERROR_CATALOG[code as keyof typeof ERROR_CATALOG].status).toBe(status);
  });

  it('has no contract code the contract does not list', () => {
    const specCodes = new Set(rows.map((r) => r[0]));
    for (const code of SPEC_ERROR_CODES) expect(specCodes.has(code)).toBe(true);
  });

  it('lists every warning code of the contract', () => {
    expect([...SPEC_WARNING_CODES].sort()).toEqual([...contract.warnings].sort());
  });

  it("adds warning codes beside the contract's, never in place of one", () => {
    for (const code of ADDED_WARNING_CODES) expect(contract.warnings).not.toContain(code);
    expect([...WARNING_CODES].sort()).toEqual([...SPEC_WARNING_CODES, ...ADDED_WARNING_CODES].sort());
  });
});
