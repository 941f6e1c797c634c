import { invalidValue, malformed, tooManyValues } from './filter-errors.js';
import { idWithPrefix } from './flat-values.js';
import type { IRNode } from './ir.js';
import { EXCLUDE_IDS_MAX } from './limits.js';
import { isAbsent, item, unique } from './shape.js';

const FIELD = 'exclude_ids';

/** `exclude_ids` beside the filter: person ids to leave out; unknown ids have no effect. Undefined when empty. */
export function parseExcludeIds(raw: unknown): IRNode | undefined {
  if (isAbsent(raw)) return undefined;
  if (!Array.isArray(raw))
    throw invalidValue(FIELD, 'an array of person ids', raw, 'Send "exclude_ids": ["per_…", …].');
  if (raw.length > EXCLUDE_IDS_MAX) throw tooManyValues(FIELD, raw.length, EXCLUDE_IDS_MAX);
  const ids = unique(
    raw.map((v: unknown, i) => {
      const at = item(FIELD, i);
      if (typeof v !== 'string')
        throw invalidValue(at, 'a person id (a string)', v, 'Send ids as returned by the API, such as per_… .');
      if (v.trim() === '') throw malformed(at, `${at} is blank.`, 'Remove the empty id.');
      return idWithPrefix(v, 'per_', at);
    }),
  );
  return ids.length === 0 ? undefined : { field: 'id', op: 'not_in', value: ids };
}
