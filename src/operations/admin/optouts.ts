import * as v from 'valibot';
import { AppError } from '../../domain/errors/index.js';
import { normalizeOptOut, OPT_OUT_TYPES, type OptOutEntry, type OptOutType } from '../../domain/optouts.js';
import * as out from '../outputs.js';
import { intParam, text } from '../schemas.js';
import { defineOperation, type OpContext } from '../types.js';

/**
 * Operator routes of the suppression list (issue 17), like `cds optout`: list, add, remove, audit. They take the
 * operator token (CDS_ADMIN_TOKEN). Removal is `POST /v1/admin/optouts/remove` with a JSON body: DELETE routes read
 * their input from the query string only (http/rest-router.ts), which cannot carry a batch of identifiers.
 */

/** Identifiers one add or remove call takes (the body must also fit CDS_MAX_BODY_BYTES, 1 MB by default). */
export const OPT_OUT_MAX_VALUES = 10_000;

/** Who the audit names for a change made through these routes (the operator token has no user). */
const ACTOR = 'api:operator';

const typeParam = (what: string) =>
  v.pipe(v.picklist(OPT_OUT_TYPES as OptOutType[], `must be one of ${OPT_OUT_TYPES.join(', ')}`), v.description(what));

const batchInput = v.object({
  type: typeParam('Identifier type: id, email, phone, url (profile URL or slug) or sha256.'),
  values: v.pipe(
    v.array(text('An identifier of that type.', 2048)),
    v.minLength(1, 'must hold at least one identifier'),
    v.maxLength(OPT_OUT_MAX_VALUES, `must hold at most ${OPT_OUT_MAX_VALUES} identifiers`),
    v.description(`Identifiers (at most ${OPT_OUT_MAX_VALUES}).`),
  ),
});

const rejectsOutput = out.list(out.obj({ index: out.num, reason: out.str }));

/** The normalized entries of a batch, and which indexes were refused and why. */
function normalizeBatch(ctx: OpContext, type: OptOutType, values: readonly string[]) {
  const entries: OptOutEntry[] = [];
  const rejects: Array<{ index: number; reason: string }> = [];
  values.forEach((raw, index) => {
    const r = normalizeOptOut(type, raw, ctx.services.config.networkHost);
    if (r.ok) entries.push(r.entry);
    else rejects.push({ index, reason: r.reason });
  });
  return { entries, rejects };
}

/** The API's cursor: the store's `after` key, base64url (opaque to clients, safe in a query string). */
const encodeCursor = (after: string) => Buffer.from(after, 'utf8').toString('base64url');

function decodeCursor(cursor: string): string {
  const after = Buffer.from(cursor, 'base64url').toString('utf8');
  // The store checks what the key names; this refuses text that is not base64url at all.
  if (encodeCursor(after) !== cursor) {
    throw new AppError('request.invalid', 'The cursor is not valid.', {
      field: 'cursor',
      hint: 'Pass page.next_cursor back unchanged, or start again without a cursor.',
    });
  }
  return after;
}

export const adminListOptOuts = defineOperation({
  name: 'admin.optouts.list',
  family: 'system',
  method: 'GET',
  path: '/v1/admin/optouts',
  auth: 'operator',
  spends: false,
  summary: 'List opt-outs (operator)',
  description:
    'The suppression list in a stable order (type, then value), page by page: pass `page.next_cursor` as `cursor`. ' +
    'Values are normalized identifiers (lowercased email, E.164 phone, profile slug, contact id, SHA-256 hex).',
  cost: 'free',
  output: out.list(out.obj({ type: out.str, value: out.str, created_at: out.str })),
  errors: ['data.unavailable'],
  input: v.object({
    type: v.optional(typeParam('Only entries of this type.')),
    cursor: v.optional(text('`page.next_cursor` of the previous page.', 4096)),
    limit: v.optional(intParam(1, 1000, 'Entries per page (default 100).')),
  }),
  handler: async (ctx, input) => {
    const limit = input.limit ?? 100;
    const page = await ctx.services.state.listOptOuts({
      ...(input.type ? { type: input.type } : {}),
      after: input.cursor ? decodeCursor(input.cursor) : null,
      limit,
    });
    return {
      data: page.entries.map((e) => ({ type: e.type, value: e.value, created_at: e.createdAt })),
      page: {
        returned: page.entries.length,
        limit,
        total: page.total,
        next_cursor: page.next === null ? null : encodeCursor(page.next),
      },
    };
  },
});

export const adminAddOptOuts = defineOperation({
  name: 'admin.optouts.add',
  family: 'system',
  method: 'POST',
  path: '/v1/admin/optouts',
  auth: 'operator',
  spends: false,
  summary: 'Add opt-outs (operator)',
  description:
    `Adds up to ${OPT_OUT_MAX_VALUES} identifiers of one type to the suppression list. Each is normalized first; ` +
    'those that cannot be read are skipped and listed in `rejects` by index with the reason. Answers how many were ' +
    'added and how many were listed already; every change is audited (type and count, never the identifier).',
  cost: 'free',
  output: out.obj({ added: out.num, already: out.num, rejected: out.num, rejects: rejectsOutput }),
  errors: ['data.unavailable'],
  input: batchInput,
  handler: async (ctx, input) => {
    const { entries, rejects } = normalizeBatch(ctx, input.type, input.values);
    const r = await ctx.services.state.addOptOuts(entries, { action: 'add', actor: ACTOR }, ctx.now);
    return { data: { added: r.added, already: r.already, rejected: rejects.length, rejects } };
  },
});

export const adminRemoveOptOuts = defineOperation({
  name: 'admin.optouts.remove',
  family: 'system',
  method: 'POST',
  path: '/v1/admin/optouts/remove',
  auth: 'operator',
  spends: false,
  summary: 'Remove opt-outs (operator)',
  description:
    `Removes up to ${OPT_OUT_MAX_VALUES} identifiers of one type from the suppression list (normalized as when ` +
    'added; unreadable ones are listed in `rejects`). Answers how many were removed and how many were not listed. ' +
    'A POST with a body, since DELETE routes take no body.',
  cost: 'free',
  output: out.obj({ removed: out.num, missing: out.num, rejected: out.num, rejects: rejectsOutput }),
  errors: ['data.unavailable'],
  input: batchInput,
  handler: async (ctx, input) => {
    const { entries, rejects } = normalizeBatch(ctx, input.type, input.values);
    const r = await ctx.services.state.removeOptOuts(entries, { action: 'remove', actor: ACTOR }, ctx.now);
    return { data: { removed: r.removed, missing: r.missing, rejected: rejects.length, rejects } };
  },
});

export const adminOptOutAudit = defineOperation({
  name: 'admin.optouts.audit',
  family: 'system',
  method: 'GET',
  path: '/v1/admin/optouts/audit',
  auth: 'operator',
  spends: false,
  summary: 'Opt-out audit (operator)',
  description:
    'The newest changes of the suppression list first: when, which action (add, import, remove), who (`cli:<user>` ' +
    'or `api:operator`), the identifier type and how many entries changed. Never an identifier.',
  cost: 'free',
  output: out.list(out.obj({ at: out.str, action: out.str, actor: out.str, type: out.str, count: out.num })),
  errors: ['data.unavailable'],
  input: v.object({ limit: v.optional(intParam(1, 1000, 'Records (default 100).')) }),
  handler: async (ctx, input) => ({ data: await ctx.services.state.listOptOutAudit(input.limit ?? 100) }),
});
