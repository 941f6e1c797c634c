import { sha256Of } from '../../../src/domain/optouts.js';
import { compileWhere } from '../../../src/engine/search-cluster/compile/compile-where.js';
import { documentOf } from '../../../src/engine/search-cluster/release-writer/documents.js';
import {
  type ClusterSuppressed,
  cutRewrite,
  hiddenQuery,
  hidesFn,
  numberLeafHolds,
} from '../../../src/engine/search-cluster/suppression.js';

/**
 * The parts of opt-outs on Elasticsearch that need no cluster: the query a list becomes (every identifier column,
 * hashes on the field the loader writes), the JS test of rows already read, the hashes written per contact, and the
 * companies' cut contact counts applied to a contact_count leaf.
 */
const list = {
  ids: ['per_1'],
  emails: ['ada@x.com'],
  phones: ['+15550100'],
  slugs: ['ada-l'],
  sha256: [sha256Of('+15550199')],
};

describe('opt-outs on Elasticsearch', () => {
  it('a list is one should of terms per identifier column; the empty list is none', () => {
    expect(hiddenQuery({ ids: [], emails: [], phones: [], slugs: [], sha256: [] })).toBeNull();
    expect(hiddenQuery(list)).toEqual({
      bool: {
        should: [
          { terms: { id: ['per_1'] } },
          { terms: { work_email: ['ada@x.com'] } },
          { terms: { mobile_phone: ['+15550100'] } },
          { terms: { direct_phone: ['+15550100'] } },
          { terms: { network_slug: ['ada-l'] } },
          { terms: { suppression_sha256: [sha256Of('+15550199')] } },
        ],
        minimum_should_match: 1,
      },
    });
  });

  it('rows already read are tested in JS with the same rules', () => {
    const hides = hidesFn(list);
    expect(hides({ id: 'per_1' })).toBe(true);
    expect(hides({ id: 'per_2', direct_phone: '+15550100' })).toBe(true);
    expect(hides({ id: 'per_3', network_slug: 'ada-l' })).toBe(true);
    expect(hides({ id: 'per_4', suppression_sha256: ['x', sha256Of('+15550199')] })).toBe(true);
    expect(hides({ id: 'per_5', work_email: 'ADA@x.com', mobile_phone: null })).toBe(false);
  });

  it('contacts carry the SHA-256 of each email and phone; null fields are left out', () => {
    const doc = documentOf('contact', {
      id: 'per_9',
      work_email: 'ada@x.com',
      mobile_phone: '+15550199',
      direct_phone: null,
      title: null,
    });
    expect(doc).toEqual({
      id: 'per_9',
      work_email: 'ada@x.com',
      mobile_phone: '+15550199',
      suppression_sha256: [sha256Of('ada@x.com'), sha256Of('+15550199')],
    });
    expect(documentOf('company', { id: 'com_1', domain: null })).toEqual({ id: 'com_1' });
  });

  it("a company's contact_count leaf reads the cut count of the companies with a cut", () => {
    const sup: ClusterSuppressed = {
      version: 1,
      count: 3,
      hidden: hiddenQuery(list)!,
      hides: () => false,
      companies: {
        counts: new Map([
          ['com_1', 4],
          ['com_2', 10],
        ]),
      },
    };
    const leaf = { field: 'contact_count', op: 'gte' as const, value: 5 };
    expect(numberLeafHolds(leaf, 4)).toBe(false);
    expect(numberLeafHolds({ field: 'contact_count', op: 'in', value: [4, 7] }, 4)).toBe(true);
    expect(compileWhere('company', leaf, cutRewrite('company', sup))).toEqual({
      bool: {
        should: [
          {
            bool: {
              filter: [{ range: { contact_count: { gte: 5 } } }],
              must_not: [{ terms: { id: ['com_1', 'com_2'] } }],
            },
          },
          { terms: { id: ['com_2'] } },
        ],
        minimum_should_match: 1,
      },
    });
    // Other leaves, and contacts, are untouched.
    expect(
      compileWhere('company', { field: 'employee_count', op: 'gte', value: 5 }, cutRewrite('company', sup)),
    ).toEqual({
      range: { employee_count: { gte: 5 } },
    });
    expect(cutRewrite('contact', sup)).toBeUndefined();
  });
});
