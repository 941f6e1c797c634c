import { type ColumnOptions, column, type ShapeName } from './define.js';
import type { ColumnDef } from './types.js';

const c = (name: string, shape: ShapeName, label: string, description: string, opts?: ColumnOptions): ColumnDef =>
  column('contact', name, shape, label, description, opts);

/**
 * Every contact column, in schema order (`id` first). One record per contact; the employer's
 * company fields are copied onto it (company_*). `defaultSet` marks the enrichment default set.
 */
export const CONTACT_COLUMNS: readonly ColumnDef[] = [
  c('id', 'text', 'Contact ID', 'Contact id, prefix per_.', { nullable: false, defaultSet: true }),
  c('name', 'text', 'Full Name', 'Full name.', { nullable: false, defaultSet: true, substrings: true }),
  c('first_name', 'text', 'First Name', 'First name.', { fill: 0.99, card: true }),
  c('last_name', 'text', 'Last Name', 'Last name.', { fill: 0.99, card: true }),
  c('title', 'text', 'Job Title', 'Title of the current main role.', {
    defaultSet: true,
    fill: 0.97,
    words: 'title_words',
  }),
  c('company', 'text', 'Company Name', 'Name of the current employer.', {
    defaultSet: true,
    fill: 0.98,
    substrings: 'values',
  }),
  c('company_domain', 'text', 'Company Domain', 'Website domain of the current employer.', {
    defaultSet: true,
    fill: 0.93,
  }),
  c('work_email', 'text', 'Work Email', 'Work email address (lowercase).', {
    defaultSet: true,
    fill: 0.7,
    lookup: true,
    contactPoint: true,
  }),
  c('country', 'country', 'Country', "Person's country, lowercase ISO-2 slug.", {
    list: 'country',
    defaultSet: true,
    fill: 0.96,
  }),
  c('seniority', 'text', 'Seniority', 'Seniority of the current main role.', {
    list: 'seniority',
    nullable: false,
    defaultSet: true,
  }),
  c('last_updated', 'month', 'Last Updated', 'Month the record was last updated.', {
    nullable: false,
    defaultSet: true,
  }),
  c('mobile_phone', 'text', 'Mobile Phone', 'Mobile phone, E.164.', {
    defaultSet: true,
    fill: 0.25,
    lookup: true,
    contactPoint: true,
  }),
  c('direct_phone', 'text', 'Direct Phone', 'Direct dial, E.164.', {
    defaultSet: true,
    fill: 0.2,
    lookup: true,
    contactPoint: true,
  }),
  c('has_phone', 'bool', 'Has Phone', 'True when a mobile or direct phone is known.', {
    nullable: false,
    defaultSet: true,
  }),
  c('function', 'text', 'Job Function', 'Job function of the current main role.', {
    list: 'function',
    nullable: false,
    defaultSet: true,
  }),
  c('location', 'text', 'Location', 'City, state and country as one line.', {
    defaultSet: true,
    fill: 0.96,
    substrings: 'values',
  }),
  c('email_status', 'text', 'Email Status', 'Deliverability status of the work email, from the data source.', {
    list: 'email_status',
    defaultSet: true,
    fill: 0.7,
  }),
  c('company_size', 'text', 'Company Size', 'Employee band of the current employer.', {
    list: 'company_size',
    defaultSet: true,
    fill: 0.9,
  }),
  c('company_industries', 'list', 'Company Industries', 'Industry slugs of the current employer.', {
    list: 'industry',
    defaultSet: true,
    fill: 0.9,
  }),
  c('company_network', 'text', 'Company Network URL', 'Network profile URL of the current employer.', {
    defaultSet: true,
    fill: 0.85,
  }),
  c('network', 'text', 'Network URL', 'Network profile URL of the person.', { defaultSet: true, fill: 0.9 }),
  c('has_work_email', 'bool', 'Has Work Email', 'True when a work email is known.', { nullable: false }),
  c('email_verified_month', 'month', 'Email Verified Month', 'Month the email status was last verified.', {
    fill: 0.6,
  }),
  c('role_since', 'date', 'Job Start Date', 'Start date of the current main role.', { fill: 0.85 }),
  c('signals', 'list', 'Signals', 'Profile signals computed at load: career events such as new_in_role_90d.', {
    list: 'signals',
    nullable: false,
  }),
  c('skills', 'list', 'Skills', 'Skills, lowercase.', { list: 'skills', fill: 0.7 }),
  c('languages', 'list', 'Languages', 'Spoken languages.', { list: 'languages', fill: 0.5 }),
  c('personas', 'list', 'Personas', 'Buyer personas.', { list: 'personas', fill: 0.6 }),
  c(
    'experience',
    'record',
    'Experience',
    'Current roles, main role first: title, company, company_id, domain, start date.',
    { fill: 0.97 },
  ),
  c('education', 'record', 'Education', 'Schools with degree, field and end year.', { fill: 0.6 }),
  c('certifications', 'record', 'Certifications', 'Certifications with authority and year.', { fill: 0.2 }),
  c('social', 'record', 'Social Profiles', 'Other social profile URLs.', { fill: 0.3 }),
  c('headline', 'text', 'Network Headline', 'Headline of the network profile.', { fill: 0.85 }),
  c('person_description', 'text', 'Person Description', 'About text of the person.', { fill: 0.4 }),
  c('job_description', 'text', 'Job Description', 'Description of the current role.', { fill: 0.35 }),
  c('state', 'text', 'State', "Person's state or region.", { fill: 0.85 }),
  c('city', 'text', 'City', "Person's city.", { fill: 0.9 }),
  c('job_location_country', 'country', 'Job Location Country', 'Country of the office where the person works.', {
    list: 'country',
    fill: 0.8,
  }),
  c('job_location_state', 'text', 'Job Location State', 'State of the office where the person works.', { fill: 0.7 }),
  c('job_location_city', 'text', 'Job Location City', 'City of the office where the person works.', { fill: 0.75 }),
  c('last_refreshed', 'date', 'Last Refreshed', 'Date the record was last refreshed from its sources.', { fill: 0.8 }),
  c('company_id', 'text', 'Company ID', 'Id of the current employer, prefix com_.', { fill: 0.98 }),
  c('company_employee_count', 'int', 'Company Employee Count', 'Employee count of the current employer.', {
    fill: 0.9,
  }),
  c('company_founded_year', 'int', 'Company Founded Year', 'Year the current employer was founded.', { fill: 0.75 }),
  c('company_total_funding_usd', 'int', 'Company Total Funding (USD)', 'Total funding raised by the employer, USD.', {
    fill: 0.25,
  }),
  c('company_revenue', 'text', 'Company Revenue', 'Revenue range of the current employer.', {
    list: 'company_revenue',
    fill: 0.6,
  }),
  c('company_revenue_usd', 'int', 'Company Revenue (USD)', 'Estimated annual revenue of the employer, USD.', {
    fill: 0.6,
  }),
  c('company_hq_country', 'country', 'Company HQ Country', 'Headquarters country of the employer.', {
    list: 'country',
    fill: 0.9,
  }),
  c('company_hq_state', 'text', 'Company HQ State', 'Headquarters state of the employer.', { fill: 0.8 }),
  c('company_hq_city', 'text', 'Company HQ City', 'Headquarters city of the employer.', { fill: 0.85 }),
  c(
    'company_last_round_date',
    'month',
    'Company Last Round Date',
    'Month of the latest financing event of the employer.',
    { fill: 0.25 },
  ),
  c(
    'company_last_round_type',
    'text',
    'Company Last Round Type',
    'Type of the latest financing event of the employer.',
    { list: 'funding_round_type', fill: 0.25 },
  ),
  c('company_entity_type', 'text', 'Company Entity Type', 'Legal entity type of the employer.', {
    list: 'entity_type',
    fill: 0.8,
  }),
  c('company_is_public', 'bool', 'Company Is Public', 'True when the employer is a public company.', { fill: 0.8 }),
  c('company_technologies', 'list', 'Company Technologies', 'Technologies used by the employer.', {
    list: 'technologies',
    fill: 0.6,
  }),
  c('company_has_mobile_app', 'bool', 'Company Has Mobile App', 'The employer publishes a mobile app.', { fill: 0.7 }),
  c('company_has_web_app', 'bool', 'Company Has Web App', 'The employer offers a web app.', { fill: 0.7 }),
  c('company_naics_codes', 'list', 'Company NAICS Codes', 'NAICS codes of the employer.', { fill: 0.6 }),
  c('company_naics_descriptions', 'list', 'Company NAICS Descriptions', 'NAICS descriptions of the employer.', {
    fill: 0.6,
  }),
  c('company_sic_codes', 'list', 'Company SIC Codes', 'SIC codes of the employer.', { fill: 0.55 }),
  c('company_sic_descriptions', 'list', 'Company SIC Descriptions', 'SIC descriptions of the employer.', {
    fill: 0.55,
  }),
  c('company_uk_industry_codes', 'list', 'Company UK Industry Codes', 'UK SIC 2007 codes of the employer.', {
    fill: 0.15,
  }),
  c(
    'company_uk_industry_descriptions',
    'list',
    'Company UK Industry Descriptions',
    'UK SIC 2007 descriptions of the employer.',
    { fill: 0.15 },
  ),
  c(
    'company_startup_categories',
    'list',
    'Company Startup Categories',
    'Startup database categories of the employer.',
    { fill: 0.2 },
  ),
  c('company_followers', 'int', 'Company Followers', 'Followers of the employer on the network.', { fill: 0.8 }),
  c('company_monthly_traffic', 'int', 'Company Monthly Traffic', 'Monthly web visits of the employer.', { fill: 0.5 }),
  c(
    'company_employee_growth_pct',
    'num',
    'Company Employee Growth (%)',
    'Yearly headcount growth of the employer, percent.',
    { fill: 0.6 },
  ),
  c(
    'company_monthly_search_adspend',
    'int',
    'Company Monthly Search Ad Spend (USD)',
    'Estimated monthly search ad spend of the employer, USD.',
    { fill: 0.3 },
  ),
  c(
    'company_employee_profiles',
    'int',
    'Company Employee Profiles',
    'Employee profiles of the employer on the network.',
    { fill: 0.8 },
  ),
  c('company_valid_email_count', 'int', 'Company Valid Email Count', 'Verified emails held at the employer.', {
    fill: 0.8,
  }),
  c('company_specialties', 'list', 'Company Specialties', 'Specialties of the employer.', { fill: 0.5 }),
  c('company_headline', 'text', 'Company Headline', 'Tagline of the employer.', { fill: 0.6 }),
  c('company_description', 'text', 'Company Description', 'About text of the employer.', { fill: 0.6 }),
  c('company_office_countries', 'list', 'Company Office Countries', 'Countries of the employer offices.', {
    fill: 0.8,
  }),
  c('company_office_states', 'list', 'Company Office States', 'States of the employer offices.', { fill: 0.7 }),
  c('company_office_cities', 'list', 'Company Office Cities', 'Cities of the employer offices.', { fill: 0.75 }),
  // Engine-only helper fields written by the loader; never listed by the schema routes.
  c('network_slug', 'text', 'Network Slug', 'Slug of the person profile URL.', { internal: true, lookup: true }),
  c('company_name_norm', 'text', 'Normalized Company Name', 'Employer name after company-name normalization.', {
    internal: true,
    card: true,
  }),
  c('company_network_slug', 'text', 'Company Network Slug', 'Slug of the company profile URL.', { internal: true }),
  c('email_domain', 'text', 'Email Domain', 'Domain part of the work email.', { internal: true }),
  c('schools', 'list', 'Schools', 'School names from education.', { internal: true }),
  c('secondary_titles', 'list', 'Secondary Titles', 'Titles of other current roles.', {
    internal: true,
    words: 'secondary_title_words',
  }),
  c(
    'title_words',
    'text',
    'Title Words',
    'Words key of the title (lowercase words, space-separated and space-ended).',
    { internal: true },
  ),
  c('secondary_title_words', 'list', 'Secondary Title Words', 'Words keys of the secondary titles.', {
    internal: true,
  }),
  c('secondary_domains', 'list', 'Secondary Domains', 'Employer domains of other current roles.', { internal: true }),
  c('secondary_company_names', 'list', 'Secondary Company Names', 'Normalized employer names of other current roles.', {
    internal: true,
  }),
  c('secondary_company_ids', 'list', 'Secondary Company IDs', 'Employer ids of other current roles.', {
    internal: true,
  }),
  c('secondary_functions', 'list', 'Secondary Functions', 'Functions of other current roles.', { internal: true }),
  c('secondary_seniorities', 'list', 'Secondary Seniorities', 'Seniorities of other current roles.', {
    internal: true,
  }),
  c(
    'sort_key',
    'int',
    'Sort Key',
    'Stable total order of contacts (rank of id after a full load; a delta load keeps rows in place, new ones last).',
    {
      internal: true,
      nullable: false,
    },
  ),
];
