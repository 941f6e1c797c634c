import * as v from 'valibot';
import { FAMILY_B_PARAMS, findFamilyBParam, findList, listValues } from '../../domain/catalog/index.js';
import { AppError } from '../../domain/errors/index.js';
import { lowerText } from '../../domain/text/lower.js';
import * as out from '../outputs.js';
import { intParam, text } from '../schemas.js';
import { defineOperation } from '../types.js';

/**
 * Allowed values of a named family B list filter: fixed lists answer their labels; lists that come from the
 * data (technologies, personas, countries' stored values) answer the stored values, most frequent first;
 * free-text filters have no values (`values: []`, `free_text: true`).
 */
export const filterValuesB = defineOperation({
  name: 'b.filter_values',
  family: 'B',
  method: 'GET',
  path: '/api/v1/contacts/filter-values',
  auth: 'key',
  spends: false,
  summary: 'Filter values (family B)',
  description:
    'Allowed values of a named list filter (e.g. seniority, job_functions, industries, company_size, revenue, ' +
    'email_status, regions, continents, technologies). Free-text filters have none. q filters by substring; limit ' +
    'at most 1,000. Free.',
  cost: 'free',
  output: out.obj({ filter: out.str, type: out.str, values: out.list(out.str) }),
  errors: ['data.unavailable', 'query.timeout'],
  input: v.object({
    filter: text('Filter name, e.g. seniority.', 100),
    q: v.optional(text('Case-insensitive substring filter.', 200)),
    limit: v.optional(intParam(1, 1000, 'Maximum values (default 200).'), 200),
  }),
  mcp: {
    tool: 'get_available_values',
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    const def = findFamilyBParam(input.filter.trim());
    if (!def) {
      throw new AppError('filter.unknown_key', `Unknown filter ${JSON.stringify(input.filter)}.`, {
        field: 'filter',
        hint: `Filters: ${FAMILY_B_PARAMS.map((d) => d.name).join(', ')}.`,
      });
    }
    // The engine lowercases the data's values and `q` alike (lowerText); fixed lists are matched the same way here.
    const text = input.q?.trim() ?? '';
    const needle = lowerText(text);
    const keep = (s: string) => !needle || lowerText(s).includes(needle);
    let values: string[] = [];
    let fromData = false;
    if (def.allowed?.length) values = def.allowed.filter(keep);
    else if (def.list && findList(def.list)?.fromData) {
      fromData = true;
      values = (await ctx.services.engine.distinctValues('contact', def.column, text || null, input.limit)).map(
        (r) => r.value,
      );
    } else if (def.list)
      values = listValues(def.list)
        .map((lv) => lv.label)
        .filter(keep);
    const freeText = values.length === 0 && !def.allowed?.length && !def.list;
    return {
      body: {
        filter: def.name,
        type: def.type,
        values: values.slice(0, input.limit),
        ...(fromData ? { from_data: true } : {}),
        ...(freeText ? { free_text: true, note: 'This filter takes free text; it has no fixed values.' } : {}),
      },
    };
  },
});
