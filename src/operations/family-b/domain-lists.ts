import * as v from 'valibot';
import { AppError } from '../../domain/errors/index.js';
import { normalizeDomain } from '../../domain/normalize/index.js';
import type { DomainList } from '../../state/port.js';
import { requireAccount } from '../account/get-account.js';
import * as out from '../outputs.js';
import { text } from '../schemas.js';
import { defineOperation } from '../types.js';

export const DOMAIN_LIST_MAX = 10_000;
/** Per account: saved lists, and domains over all of them (the state file stays small whatever a key sends). */
export const DOMAIN_LISTS_PER_ACCOUNT = { lists: 50, domains: 100_000 };

const view = (l: DomainList) => ({
  domain_list_id: l.id,
  name: l.name,
  domains: l.domains.length,
  created_at: l.createdAt,
});

export const createDomainList = defineOperation({
  name: 'b.domain_lists.create',
  family: 'B',
  method: 'POST',
  path: '/api/v1/domain-lists',
  auth: 'key',
  spends: false,
  summary: 'Save a domain list (family B)',
  description:
    `Saves up to ${DOMAIN_LIST_MAX.toLocaleString('en')} company domains (or website URLs, reduced to domains) ` +
    `under a name; filter with domain_list_id. Lists belong to the account. Free. An account holds at most ` +
    `${DOMAIN_LISTS_PER_ACCOUNT.lists} lists and ${DOMAIN_LISTS_PER_ACCOUNT.domains.toLocaleString('en')} domains in ` +
    `all (409 domain_lists.limit_reached).`,
  cost: 'free',
  output: out.domainList,
  errors: ['domain_lists.limit_reached'],
  input: v.object({
    name: text('A name for the list.', 200),
    domains: v.pipe(
      v.array(v.pipe(v.string(), v.maxLength(500))),
      v.minLength(1, 'must hold at least one domain'),
      v.maxLength(DOMAIN_LIST_MAX, `must hold at most ${DOMAIN_LIST_MAX} domains`),
    ),
  }),
  handler: async (ctx, input) => {
    const domains = input.domains.map((d, i) => {
      const n = normalizeDomain(d);
      if (!n)
        throw new AppError('request.invalid', `${JSON.stringify(d)} is not a domain.`, {
          field: `domains[${i}]`,
          hint: 'Send bare domains such as acme.com, or website URLs.',
        });
      return n;
    });
    const list = await ctx.services.state.createDomainList(
      requireAccount(ctx).id,
      {
        name: input.name,
        domains: [...new Set(domains)],
        now: ctx.now,
      },
      DOMAIN_LISTS_PER_ACCOUNT,
    );
    return { status: 201, body: view(list) };
  },
});

export const listDomainLists = defineOperation({
  name: 'b.domain_lists.list',
  family: 'B',
  method: 'GET',
  path: '/api/v1/domain-lists',
  auth: 'key',
  spends: false,
  summary: 'Saved domain lists (family B)',
  description: 'The saved domain lists of the account with their sizes. Free.',
  cost: 'free',
  output: out.obj({ domain_lists: out.list(out.domainList) }),
  errors: [],
  input: v.object({}),
  handler: async (ctx) => ({
    body: { domain_lists: (await ctx.services.state.listDomainLists(requireAccount(ctx).id)).map(view) },
  }),
});
