import * as v from 'valibot';
import { requireAccount } from '../account/get-account.js';
import * as out from '../outputs.js';
import { text } from '../schemas.js';
import { defineOperation } from '../types.js';

export const sendFeedback = defineOperation({
  name: 'feedback.send',
  family: 'A',
  method: 'POST',
  path: '/v1/feedback',
  auth: 'key',
  spends: false,
  summary: 'Send feedback',
  description:
    'Stores a note for the operators: a message (1 to 5,000 characters), an optional category (data_quality, bug, ' +
    'feature, other) and the request id it concerns.',
  cost: 'free',
  output: out.obj({ id: out.str, created_at: out.str }),
  errors: [],
  input: v.strictObject({
    message: v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, 'must not be blank'),
      v.maxLength(5000, 'must be at most 5,000 characters'),
    ),
    category: v.optional(
      v.picklist(['data_quality', 'bug', 'feature', 'other'], 'must be one of data_quality, bug, feature, other'),
      'other',
    ),
    request_id: v.optional(text('The request id the note is about.', 100)),
    contact_id: v.optional(text('A contact id the note is about.', 100)),
  }),
  handler: async (ctx, input) => {
    const fb = await ctx.services.state.addFeedback(requireAccount(ctx).id, { ...input }, ctx.now);
    return { status: 201, data: { id: fb.id, created_at: fb.createdAt } };
  },
});
