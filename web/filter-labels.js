/**
 * The audience builder's words: every contact filter key of the catalog in a group, with a label a person reads
 * (never the API key) and a short help line. The descriptions of the schema route stay available as the longer
 * help; a key the catalog adds later still shows (in "More filters", under its schema description) until it is
 * given words here — test/browser/console-flows.test.ts fails while one is missing.
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

/** @type {Record<string, KeyWords>} */
export const KEY_WORDS = {
  countries: { group: 'person', label: 'Country', help: 'Where the person lives.', pair: 'exclude_countries' },
  exclude_countries: { group: 'person', label: 'Not in country' },
  schools: { group: 'person', label: 'School', help: 'Exact school names, separated by commas.' },
  skills: { group: 'person', label: 'Skill' },
  title_query: { group: 'job', label: 'Job title contains the words', help: 'Whole words, e.g. "head of sales".' },
  functions: { group: 'job', label: 'Job function', pair: 'exclude_functions' },
  exclude_functions: { group: 'job', label: 'Not in job function' },
  seniority: { group: 'job', label: 'Seniority', pair: 'exclude_seniority' },
  exclude_seniority: { group: 'job', label: 'Not at seniority' },
  include_secondary_roles: {
    group: 'job',
    label: 'Also match other current roles',
    help: 'Job and company filters also look at roles besides the main one.',
  },
  company_names: { group: 'company', label: 'Company name', help: 'Exact names, separated by commas.' },
  domains: { group: 'company', label: 'Company website', help: 'Domains such as acme.com, separated by commas.' },
  company_ids: { group: 'company', label: 'Company ID', help: 'Company ids (com_…), separated by commas.' },
  industries: { group: 'company', label: 'Industry', pair: 'exclude_industries' },
  exclude_industries: { group: 'company', label: 'Not in industry' },
  company_size: { group: 'company', label: 'Company size', help: 'Employee bands.' },
  company_revenue: { group: 'company', label: 'Company revenue', help: 'Only companies with a known revenue match.' },
  employee_count_min: { group: 'company', label: 'Employees', range: 'employee_count_max' },
  employee_count_max: { group: 'company', label: 'Employees, at most' },
  founded_year_min: { group: 'company', label: 'Founded (year)', range: 'founded_year_max' },
  founded_year_max: { group: 'company', label: 'Founded, at the latest' },
  total_funding_min: { group: 'company', label: 'Total funding (USD)', range: 'total_funding_max' },
  total_funding_max: { group: 'company', label: 'Total funding, at most' },
  company_hq_countries: { group: 'company', label: 'Headquarters country' },
  last_round_types: { group: 'company', label: 'Latest funding round' },
  last_round_after: {
    group: 'company',
    label: 'Latest funding round date',
    help: 'Months after the first and before the second (both excluded).',
    range: 'last_round_before',
  },
  last_round_before: { group: 'company', label: 'Latest funding round before' },
  has_work_email: { group: 'contact', label: 'Has a work email' },
  has_phone: { group: 'contact', label: 'Has a phone number', help: 'A mobile or a direct phone.' },
  has_network: { group: 'contact', label: 'Has a network profile' },
  exclude_domains: { group: 'exclusions', label: 'Leave out company websites', help: 'Domains, separated by commas.' },
  exclude_company_names: {
    group: 'exclusions',
    label: 'Leave out company names',
    help: 'Exact names, separated by commas.',
  },
};

/**
 * The words of a key: its own, or (for a key not given words yet) the key under "More filters".
 * @returns {KeyWords}
 */
export function wordsOf(key) {
  return KEY_WORDS[key.key] ?? { group: 'more', label: key.key, help: key.description };
}

export const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
