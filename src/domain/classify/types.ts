/** Result types of the title classifier; the value lists mirror the catalog's frozen closed lists. */

export const SENIORITY_VALUES = [
  'c_level',
  'vp',
  'director',
  'manager',
  'senior_ic',
  'entry',
  'founder_or_partner',
  'unknown',
] as const;
export type Seniority = (typeof SENIORITY_VALUES)[number];

export const JOB_FUNCTION_VALUES = [
  'operations',
  'general_management',
  'sales_and_bizdev',
  'information_technology',
  'education',
  'healthcare_and_social_services',
  'finance_and_accounting',
  'manufacturing_and_production',
  'engineering',
  'customer_service',
  'government_and_public_safety',
  'marketing_and_advertising',
  'human_resources',
  'arts_and_creative',
  'construction_and_trades',
  'legal',
  'supply_chain_and_logistics',
  'procurement',
  'writing_and_editorial',
  'research_and_science',
  'other',
] as const;
export type JobFunction = (typeof JOB_FUNCTION_VALUES)[number];

export interface TitleClass {
  seniority: Seniority;
  function: JobFunction;
  /** The title names a founder or co-founder role (feeds the `founder` signal). */
  founder: boolean;
}
