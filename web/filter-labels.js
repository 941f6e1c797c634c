/**
 * The audience builder's presentation of the filter groups. The words of each filter key (label, group, help, the
 * exclude key shown beside it, the range it starts) are the catalog's (src/domain/catalog/*-filter-keys.ts), served
 * in GET /v1/contacts/schema `filter_keys[]`; only the groups' titles and help lines are here.
 */

/** @typedef {{ label: string, help?: string, group: string, pair?: string, range?: string }} KeyWords */

export const GROUPS = [
  { id: 'person', title: 'Person', help: 'Where people live, what they studied and know.' },
  { id: 'job', title: 'Job', help: 'Their current role.' },
  { id: 'company', title: 'Company', help: 'Their current employer.' },
  { id: 'contact', title: 'Contact data', help: 'What can be reached.' },
  { id: 'signals', title: 'Signals', help: 'Career events seen on the profile.' },
  { id: 'exclusions', title: 'Exclusions', help: 'Companies to leave out.' },
  { id: 'more', title: 'More filters', help: 'Filters without plain words yet.' },
];

/**
 * The words of a key as the schema route serves them from the catalog (label, group, help, pair, range_end); a key
 * without words (none today: test/unit/filter-key-words.test.ts requires them) shows under "More filters" by its key.
 * @param {{ key: string, description?: string, label?: string, group?: string, help?: string | null,
 *   pair?: string | null, range_end?: string | null }} key
 * @returns {KeyWords}
 */
export function wordsOf(key) {
  if (!key.label || !key.group) return { group: 'more', label: key.key, help: key.description };
  return {
    group: key.group,
    label: key.label,
    ...(key.help ? { help: key.help } : {}),
    ...(key.pair ? { pair: key.pair } : {}),
    ...(key.range_end ? { range: key.range_end } : {}),
  };
}

export const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
