import * as v from 'valibot';
import { decodeCursor, encodeCursor, queryHash } from '../../domain/cursor.js';
import { requireAccount } from '../account/get-account.js';
import { rowsPerCall } from '../limits.js';
import * as out from '../outputs.js';
import { intParam, text } from '../schemas.js';
import { defineOperation } from '../types.js';
import { signalView } from './views.js';

export const SIGNALS_LIMIT_DEFAULT = 100;
export const SIGNALS_LIMIT_MAX = 1000;
/** An agent's context is small: one MCP call returns at most this many rows. */

export const listSignals = defineOperation({
  name: 'signals.list',
  family: 'A',
  method: 'GET',
  path: '/v1/signals',
  auth: 'key',
  spends: false,
  summary: 'List signals',
  description:
    'Signal rows of the account in the order they were written, page by page with an opaque cursor: source_type ' +
    'collect with source_id = a collect job id, or source_type alert with source_id = an alert id (run_id narrows ' +
    'to one alert run). Each row: id, source_type, source_id, run_id, name, headline, profile_url, engagement ' +
    '(reaction, comment, follow), post_url, at, lead (the first sighting of the person for this source, charged as ' +
    'a lead), contact (the stored contact with the enrichment default columns when the profile matched one, else ' +
    'null), created_at. limit defaults to 100, at most 1,000 (100 over MCP). Free.',
  cost: 'free',
  output: out.list(
    out.obj({
      id: out.str,
      source_type: out.str,
      source_id: out.str,
      run_id: out.str,
      name: out.str,
      profile_url: out.str,
      engagement: out.str,
      at: out.str,
      lead: out.bool,
      contact: out.nullable(out.contactRow),
      created_at: out.str,
    }),
  ),
  errors: [],
  input: v.object({
    source_type: v.optional(v.picklist(['collect', 'alert'], 'must be collect or alert')),
    source_id: v.optional(text('A collect job id (col_…) or an alert id (alr_…).', 100)),
    run_id: v.optional(text('One alert run (run_…) or collect job.', 100)),
    limit: v.optional(
      intParam(1, SIGNALS_LIMIT_MAX, 'Rows per page, 1 to 1,000 (default 100).'),
      SIGNALS_LIMIT_DEFAULT,
    ),
    cursor: v.optional(v.nullable(text('page.next_cursor of the previous page, unchanged.', 2000))),
  }),
  mcp: {
    tool: 'list_signals',
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    const account = requireAccount(ctx);
    const { state, secret, build } = ctx.services;
    const limit = rowsPerCall(ctx.face, input.limit);
    const filter = {
      accountId: account.id,
      ...(input.source_type ? { sourceType: input.source_type } : {}),
      ...(input.source_id ? { sourceId: input.source_id } : {}),
      ...(input.run_id ? { runId: input.run_id } : {}),
    };
    // Rows live in the state store, not in a data release: a cursor pins the build and the filter only.
    const pin = {
      buildLabel: `signals:${build.version}`,
      queryHash: queryHash({
        route: 'signals',
        source_type: input.source_type ?? null,
        source_id: input.source_id ?? null,
        run_id: input.run_id ?? null,
      }),
    };
    const after = input.cursor ? decodeCursor(secret, input.cursor, pin).k : null;
    const rows = await state.listSignals({ ...filter, afterSeq: after, limit: limit + 1 });
    const more = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      data: page.map(signalView),
      page: {
        returned: page.length,
        limit,
        total: await state.countSignals(filter),
        next_cursor: more && last ? encodeCursor(secret, { r: pin.buildLabel, q: pin.queryHash, k: last.seq }) : null,
      },
    };
  },
});
