import * as v from 'valibot';
import { FAMILY_B_PARAMS, publicColumns } from '../../domain/catalog/index.js';
import { FAMILY_B_EXPORT_MAX_ROWS } from '../../jobs/export/payload.js';
import * as out from '../outputs.js';
import { defineOperation } from '../types.js';

/**
 * `get_available_columns` (MCP only): every contact column with its display label, type, the family B
 * filters that read it, and how full it is in the serving release (`populated_count`, `fill_share`);
 * the supported filters; the export options.
 */
export const getAvailableColumns = defineOperation({
  name: 'mcp.available_columns',
  family: 'B',
  method: 'GET',
  path: '/mcp/tools/get_available_columns',
  auth: 'key',
  spends: false,
  summary: 'Available columns (MCP only)',
  description:
    'Contact columns with display labels, types, the filters that read them, and populated_count / fill_share ' +
    'computed from the current data release; the supported filters; export options. Free.',
  cost: 'free',
  output: out.obj({
    release: out.nullable(out.str),
    rows: out.num,
    columns: out.list(out.obj({ name: out.str, label: out.str, type: out.str, description: out.str })),
    supported_filters: out.list(out.obj({ name: out.str, type: out.str, description: out.str })),
    export_options: out.obj({ tool: out.str }),
  }),
  errors: ['data.unavailable', 'query.timeout'],
  input: v.object({}),
  mcp: {
    tool: 'get_available_columns',
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx) => {
    const counts = await ctx.services.engine.populatedCounts('contact');
    const rows = counts.rows;
    return {
      body: {
        release: ctx.services.engine.release()?.id ?? null,
        rows,
        columns: publicColumns('contact').map((c) => ({
          name: c.name,
          label: c.label,
          type: c.type,
          description: c.description,
          filters: FAMILY_B_PARAMS.filter((p) => p.column === c.name).map((p) => p.name),
          populated_count: counts.columns[c.name] ?? 0,
          fill_share: rows > 0 ? Math.round(((counts.columns[c.name] ?? 0) / rows) * 1000) / 1000 : 0,
        })),
        supported_filters: FAMILY_B_PARAMS.map((p) => ({
          name: p.name,
          type: p.type,
          description: p.description,
          ...(p.allowed?.length ? { values: [...p.allowed] } : {}),
        })),
        export_options: {
          tool: 'export_contacts',
          format: 'csv',
          max_rows: FAMILY_B_EXPORT_MAX_ROWS,
          headers: 'display labels',
          link_valid_hours: 24,
          cost: 'one contact credit per exported row',
          columns: 'display labels or internal names; default set plus filtered columns',
        },
      },
    };
  },
});
