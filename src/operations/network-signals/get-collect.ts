import * as v from 'valibot';
import { AppError } from '../../domain/errors/index.js';
import { requireAccount } from '../account/get-account.js';
import * as out from '../outputs.js';
import { defineOperation } from '../types.js';
import type { CollectJob } from './collect-job.js';
import { idMember } from './inputs.js';
import { statusView } from './views.js';

export const getCollect = defineOperation({
  name: 'signals.collect.get',
  family: 'A',
  method: 'GET',
  path: '/v1/signals/collect/:id',
  auth: 'key',
  spends: false,
  summary: 'Collect status',
  description:
    'Status of a collect job: queued, running, completed or failed (a job that stopped early because its hold ran ' +
    'out, or found nobody, reads completed), rows written, unique leads, rows matched to stored contacts, premium ' +
    'credits held and charged, and `read`: the GET /v1/signals query that reads its rows. Poll every 30 to 60 ' +
    "seconds. Unknown ids, alert runs and other accounts' jobs answer 404 collect.not_found. Free.",
  cost: 'free',
  output: out.obj({
    id: out.str,
    kind: out.str,
    target: out.str,
    status: out.str,
    requested: out.num,
    signals: out.num,
    leads: out.num,
    contacts_matched: out.num,
    premium_credits: out.obj({ held: out.num, charged: out.num }),
    error: out.nullable(out.str),
    created_at: out.str,
    finished_at: out.nullable(out.str),
    read: out.readHint,
  }),
  errors: ['collect.not_found'],
  input: v.object({ id: idMember }),
  mcp: {
    tool: 'get_collect',
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    const account = requireAccount(ctx);
    const job = await ctx.services.state.getJob(input.id);
    if (!job || job.accountId !== account.id || job.kind !== 'collect') {
      throw new AppError('collect.not_found', `No collect job has the id ${JSON.stringify(input.id)}.`, {
        field: 'id',
        hint:
          'Use data.job.id of the POST /v1/signals/collect answer; alert runs are read through GET ' +
          '/v1/signals/alerts/{id}.',
      });
    }
    return { data: await statusView(ctx.services.state, job as unknown as CollectJob) };
  },
});
