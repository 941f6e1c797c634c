import { type ColumnOptions, column, type ShapeName } from './define.js';
import type { ColumnDef } from './types.js';

const c = (name: string, shape: ShapeName, label: string, description: string, opts?: ColumnOptions): ColumnDef =>
  column('company', name, shape, label, description, opts);

/** Every company column, in schema order (`id` first). */
export const COMPANY_COLUMNS: readonly ColumnDef[] = [
  c('id', 'text', 'Company ID', 'Company id, prefix com_.', { nullable: false, defaultSet: true }),
  c('name', 'text', 'Company Name', 'Company name.', { nullable: false, defaultSet: true, substrings: true }),
  c('domain', 'text', 'Domain', 'Website domain.', { fill: 0.93, lookup: true, defaultSet: true }),
  c('network', 'text', 'Network URL', 'Company profile URL on the network.', { fill: 0.85, defaultSet: true }),
  c('headcount_band', 'text', 'Headcount Band', 'Employee band.', {
    list: 'company_size',
    fill: 0.9,
    defaultSet: true,
  }),
  c('employee_count', 'int', 'Employee Count', 'Employee count.', { fill: 0.9, defaultSet: true }),
  c('founded_year', 'int', 'Founded Year', 'Year founded.', { fill: 0.75, defaultSet: true }),
  c('revenue_range', 'text', 'Revenue Range', 'Annual revenue range.', {
    list: 'company_revenue',
    fill: 0.6,
    defaultSet: true,
  }),
  c('revenue_usd', 'int', 'Revenue (USD)', 'Estimated annual revenue, USD.', { fill: 0.6 }),
  c('total_funding_usd', 'int', 'Total Funding (USD)', 'Total funding raised, USD.', { fill: 0.25 }),
  c('last_round_date', 'month', 'Last Round Date', 'Month of the latest financing event.', { fill: 0.25 }),
  c('last_round_type', 'text', 'Last Round Type', 'Type of the latest financing event.', {
    list: 'funding_round_type',
    fill: 0.25,
  }),
  c('investors', 'list', 'Investors', 'Investor names.', { fill: 0.2 }),
  c('investor_count', 'int', 'Investor Count', 'Number of investors.', { fill: 0.2 }),
  c('industries', 'list', 'Industries', 'Industry slugs.', { list: 'industry', fill: 0.9, defaultSet: true }),
  c('hq_country', 'country', 'HQ Country', 'Headquarters country, ISO-2 slug.', {
    list: 'country',
    fill: 0.9,
    defaultSet: true,
  }),
  c('hq_state', 'text', 'HQ State', 'Headquarters state.', { fill: 0.8 }),
  c('hq_city', 'text', 'HQ City', 'Headquarters city.', { fill: 0.85 }),
  c('locations', 'record', 'Locations', 'Offices with street, postcode, city, state and country.', { fill: 0.8 }),
  c('employee_growth_pct', 'num', 'Employee Growth (%)', 'Yearly headcount growth, percent.', { fill: 0.6 }),
  c('specialties', 'list', 'Specialties', 'Specialties.', { fill: 0.5 }),
  c('technologies', 'list', 'Technologies', 'Technologies used.', { list: 'technologies', fill: 0.6 }),
  c('entity_type', 'text', 'Entity Type', 'Legal entity type.', { list: 'entity_type', fill: 0.8 }),
  c('is_public', 'bool', 'Is Public', 'True for a public company.', { fill: 0.8 }),
  c('has_mobile_app', 'bool', 'Has Mobile App', 'Publishes a mobile app.', { fill: 0.7 }),
  c('has_web_app', 'bool', 'Has Web App', 'Offers a web app.', { fill: 0.7 }),
  c('naics_codes', 'list', 'NAICS Codes', 'NAICS codes.', { fill: 0.6 }),
  c('naics_descriptions', 'list', 'NAICS Descriptions', 'NAICS descriptions.', { fill: 0.6 }),
  c('sic_codes', 'list', 'SIC Codes', 'SIC codes.', { fill: 0.55 }),
  c('sic_descriptions', 'list', 'SIC Descriptions', 'SIC descriptions.', { fill: 0.55 }),
  c('uk_industry_codes', 'list', 'UK Industry Codes', 'UK SIC 2007 codes.', { fill: 0.15 }),
  c('uk_industry_descriptions', 'list', 'UK Industry Descriptions', 'UK SIC 2007 descriptions.', { fill: 0.15 }),
  c('startup_categories', 'list', 'Startup Categories', 'Startup database categories.', { fill: 0.2 }),
  c('followers', 'int', 'Followers', 'Followers on the network.', { fill: 0.8 }),
  c('monthly_traffic', 'int', 'Monthly Traffic', 'Monthly web visits.', { fill: 0.5 }),
  c('monthly_search_adspend', 'int', 'Monthly Search Ad Spend (USD)', 'Estimated monthly search ad spend, USD.', {
    fill: 0.3,
  }),
  c('employee_profiles', 'int', 'Employee Profiles', 'Employee profiles on the network.', { fill: 0.8 }),
  c('valid_email_count', 'int', 'Valid Email Count', 'Verified emails held at the company.', { fill: 0.8 }),
  c('headline', 'text', 'Headline', 'Tagline.', { fill: 0.6 }),
  c('description', 'text', 'Description', 'About text.', { fill: 0.6 }),
  c('office_countries', 'list', 'Office Countries', 'Countries of the offices.', { fill: 0.8 }),
  c('office_states', 'list', 'Office States', 'States of the offices.', { fill: 0.7 }),
  c('office_cities', 'list', 'Office Cities', 'Cities of the offices.', { fill: 0.75 }),
  c('contact_count', 'int', 'Contact Count', 'Stored contacts whose current employer is this company.', {
    nullable: false,
    defaultSet: true,
  }),
  c('name_norm', 'text', 'Normalized Name', 'Name after company-name normalization.', { internal: true, lookup: true }),
  c('network_slug', 'text', 'Network Slug', 'Slug of the company profile URL.', { internal: true, lookup: true }),
  c('sort_key', 'int', 'Sort Key', 'Stable total order of companies.', { internal: true, nullable: false }),
];
