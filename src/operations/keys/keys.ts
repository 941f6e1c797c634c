import * as v from 'valibot';
import type { ApiKeyRecord } from '../../domain/account.js';
import { requireAccount } from '../account/get-account.js';
import * as out from '../outputs.js';
import { text } from '../schemas.js';
import { defineOperation } from '../types.js';

/** A key as the API shows it: never the secret, which is returned once at creation. */
export function keyView(k: ApiKeyRecord) {
  return {
    id: k.id,
    prefix: k.prefix,
    name: k.name,
    created_at: k.createdAt,
    revoked_at: k.revokedAt,
    last_used_at: k.lastUsedAt,
    active: k.revokedAt === null,
  };
}

export const listKeys = defineOperation({
  name: 'keys.list',
  family: 'A',
  method: 'GET',
  path: '/v1/keys',
  auth: 'key',
  spends: false,
  summary: 'List API keys',
  description: 'The keys of the account, active and revoked, without their secrets.',
  cost: 'free',
  output: out.list(out.keyOutput),
  errors: [],
  input: v.object({}),
  handler: async (ctx) => ({ data: (await ctx.services.state.listKeys(requireAccount(ctx).id)).map(keyView) }),
});

export const createKey = defineOperation({
  name: 'keys.create',
  family: 'A',
  method: 'POST',
  path: '/v1/keys',
  auth: 'key',
  spends: false,
  summary: 'Create API key',
  description:
    'Creates the account key and returns its secret once. An account has at most one active key: while one is ' +
    'active this answers 409 key.limit_reached; revoke it first (DELETE /v1/keys/{id}) and create the new one with ' +
    '`cds keys create`, since a revoked key can no longer sign requests.',
  cost: 'free',
  output: out.obj({ ...out.keyOutput.entries, api_key: out.str }),
  errors: ['key.limit_reached'],
  input: v.object({ name: v.optional(text('A label for the key.', 100)) }),
  handler: async (ctx, input) => {
    const { key, secret } = await ctx.services.state.createKey(requireAccount(ctx).id, {
      name: input.name ?? null,
      now: ctx.now,
    });
    return { status: 201, data: { ...keyView(key), api_key: secret } };
  },
});

export const revokeKey = defineOperation({
  name: 'keys.revoke',
  family: 'A',
  method: 'DELETE',
  path: '/v1/keys/:id',
  auth: 'key',
  spends: false,
  summary: 'Revoke API key',
  description:
    'Revokes an active key of the account at once; requests signed with it then answer 401. Unknown, revoked or ' +
    "another account's key: 404 key.not_found.",
  cost: 'free',
  output: out.keyOutput,
  errors: ['key.not_found'],
  input: v.object({ id: text('Key id (key_…).', 100) }),
  handler: async (ctx, input) => {
    const key = await ctx.services.state.revokeKey(requireAccount(ctx).id, input.id, ctx.now);
    // Redis mode: wake a worker for the key.revoked event the revocation wrote (a lost wake-up: the sweep sends it).
    await ctx.services.webhookWakeups?.announce(`key-${input.id}`, ctx.now, ctx.now);
    return { data: keyView(key) };
  },
});
