/**
 * Source dump records: what the synthetic generator writes and what `cds load` reads, one JSON object a
 * line (JSONL) or one CSV row (nested values as JSON text in their cell, lists also as `a;b;c`).
 * Values arrive raw, as a real source delivers them: country names or codes in any case, websites as URLs,
 * industry labels, titles as typed. The loader normalizes, classifies, computes signals and denormalizes.
 */

export interface SourceRole {
  title: string;
  /** Source company id (`com_…`), matching SourceCompany.company_id; may be absent. */
  company_id?: string | null;
  company_name?: string | null;
  /** Website domain or URL of the employer. */
  company_domain?: string | null;
  /** YYYY-MM-DD or YYYY-MM. */
  start_date?: string | null;
  /** The main role; when no role says so, the first one is main. */
  is_primary?: boolean;
  description?: string | null;
}

export interface SourcePerson {
  /** Stable person id (`per_…`). Required. */
  person_id: string;
  full_name?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  headline?: string | null;
  summary?: string | null;
  email?: string | null;
  /** Free-form from the source: valid, VALID, catch-all, invalid, unknown, … */
  email_status?: string | null;
  /** YYYY-MM or YYYY-MM-DD. */
  email_verified_at?: string | null;
  mobile_phone?: string | null;
  direct_phone?: string | null;
  /** Name or code in any case: "United States", "US", "usa". */
  country?: string | null;
  state?: string | null;
  city?: string | null;
  job_location?: { country?: string | null; state?: string | null; city?: string | null } | null;
  /** Full profile URL on the network host. */
  profile_url?: string | null;
  skills?: string[] | null;
  languages?: string[] | null;
  personas?: string[] | null;
  certifications?: Array<{ name: string; authority?: string | null; year?: number | null }> | null;
  education?: Array<{ school: string; degree?: string | null; field?: string | null; end_year?: number | null }> | null;
  /** Current roles only. */
  roles?: SourceRole[] | null;
  social?: Record<string, string> | null;
  /** YYYY-MM-DD: last update of the record at the source. Required. */
  updated_at: string;
  /** YYYY-MM-DD: last refresh from the sources. */
  refreshed_at?: string | null;
}

export interface SourceLocation {
  street?: string | null;
  postcode?: string | null;
  city?: string | null;
  state?: string | null;
  country?: string | null;
  is_hq?: boolean;
}

export interface SourceCompany {
  /** Stable company id (`com_…`). Required. */
  company_id: string;
  name: string;
  /** Domain or URL ("https://www.acme.com/about" -> acme.com). */
  website?: string | null;
  profile_url?: string | null;
  employee_count?: number | null;
  founded_year?: number | null;
  revenue_usd?: number | null;
  /** Labels or slugs. */
  industries?: string[] | null;
  locations?: SourceLocation[] | null;
  funding_rounds?: Array<{ type: string; date: string; amount_usd?: number | null }> | null;
  investors?: string[] | null;
  technologies?: string[] | null;
  /** Label or slug: "Privately Held", "public", … */
  entity_type?: string | null;
  has_mobile_app?: boolean | null;
  has_web_app?: boolean | null;
  naics?: Array<{ code: string; description: string }> | null;
  sic?: Array<{ code: string; description: string }> | null;
  uk_sic?: Array<{ code: string; description: string }> | null;
  startup_categories?: string[] | null;
  followers?: number | null;
  monthly_traffic?: number | null;
  employee_growth_pct?: number | null;
  monthly_search_adspend?: number | null;
  employee_profiles?: number | null;
  valid_email_count?: number | null;
  specialties?: string[] | null;
  headline?: string | null;
  description?: string | null;
  stock_ticker?: string | null;
}
