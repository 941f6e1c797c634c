import * as v from 'valibot';

/**
 * Building blocks of the operations' response schemas (`output`): family A's `data`, family B's body members
 * beside `ok`, `request_id` and `release`. OpenAPI publishes them; with CDS_CHECK_CONTRACTS=1 (the test suite)
 * every answer is validated against them, so they stay true. Objects are loose: a member added later does not
 * break a client, and rows carry the columns the caller chose.
 */

export const str = v.string();
export const num = v.number();
export const bool = v.boolean();
export const nullable = <S extends v.GenericSchema>(s: S) => v.nullable(s);
export const obj = <E extends v.ObjectEntries>(entries: E) => v.looseObject(entries);
export const list = <S extends v.GenericSchema>(s: S) => v.array(s);

/** A row of chosen columns (contacts or companies): its id, and whatever columns were asked for. */
export const row = obj({ id: str });

/** A contact card as point reads and enrichment return it (the default columns and more). */
export const contactRow = obj({ id: str, name: str });

/** One credit window (day, month, pool) as the credits routes show it. */
export const window = obj({ cap: num, used: num, held: num, remaining: num, starts_at: nullable(str), resets_at: str });

export const fairUse = obj({
  search: obj({ day: window, month: window }),
  export: obj({ day: window, month: window }),
  enrich: obj({ day: window, month: window }),
});

export const planOutput = obj({
  slug: str,
  name: str,
  contact_credits: obj({ kind: v.picklist(['lifetime_pool', 'windows', 'unlimited']) }),
  premium_credits_monthly: num,
  alerts: bool,
  max_active_alerts: num,
});

export const accountOutput = obj({
  id: str,
  name: str,
  status: v.picklist(['active', 'suspended']),
  billing_day: nullable(num),
  created_at: str,
  plan: obj({ slug: str }),
});

export const keyOutput = obj({
  id: str,
  prefix: str,
  name: nullable(str),
  created_at: str,
  revoked_at: nullable(str),
  last_used_at: nullable(str),
  active: bool,
});

/** Where to read the rows a collect or an alert filed (`list_signals` arguments). */
export const readHint = obj({ tool: str, arguments: v.record(str, v.unknown()) });

export const scrapeOutcome = obj({
  source: str,
  reason: str,
  engagers_read: num,
  contact_credits_exhausted: bool,
  contacts_skipped: num,
});

/** A collect job or alert run as alerts and polls show it. */
export const runOutput = obj({
  id: str,
  kind: str,
  target: str,
  alert_id: nullable(str),
  status: str,
  hold: num,
  signals: num,
  leads: num,
  settled_at: nullable(str),
  error: nullable(str),
  scrape_outcome: nullable(scrapeOutcome),
  created_at: str,
  started_at: nullable(str),
  completed_at: nullable(str),
});

export const alertOutput = obj({
  id: str,
  kind: str,
  target: str,
  schedule: obj({ interval_minutes: num }),
  max_followers: nullable(num),
  active: bool,
  next_run_at: nullable(str),
  last_run_at: nullable(str),
  last_error: nullable(str),
  last_run: nullable(runOutput),
  created_at: str,
  updated_at: str,
  read: readHint,
});

/** Family B: the contact credits left after the call (null on unlimited plans). */
export const creditsRemaining = nullable(num);

/** Family B offset paging members. */
export const offsetPage = {
  limit: num,
  offset: num,
  returned: num,
  has_more: bool,
  next_offset: nullable(num),
};

/** A free-form record (enrichment data, echoed inputs). */
export const record = v.record(str, v.unknown());

/** A family A export as it starts. */
export const exportStarted = obj({
  export_id: str,
  id: str,
  status: str,
  format: str,
  rows_available: num,
  rows_to_export: num,
  truncated: bool,
  truncation_reason: nullable(str),
  created_at: str,
});

/** A family A export as polled. */
export const exportStatus = obj({
  ...exportStarted.entries,
  rows_exported: num,
  started_at: nullable(str),
  completed_at: nullable(str),
  expires_at: nullable(str),
  url: nullable(str),
  error: nullable(str),
});

/** A saved domain list (family B). */
export const domainList = obj({ domain_list_id: str, name: str, domains: num, created_at: str });

/** The schema routes: columns, filter keys and the service's decisions. */
export const schemaOutput = obj({
  // label: the catalog's display label (beside the spec's members), as the console and labelled CSV headers show it.
  columns: list(
    obj({ name: str, label: str, type: str, description: str, nullable: bool, values_route: nullable(str) }),
  ),
  filter_keys: list(
    obj({
      key: str,
      type: str,
      description: str,
      column: nullable(str),
      excludes: nullable(str),
      values_route: nullable(str),
      // The catalog's words, beside the spec's members: a form's label, group, help line, side-by-side exclude key
      // and range upper bound.
      label: str,
      group: str,
      help: nullable(str),
      pair: nullable(str),
      range_end: nullable(str),
    }),
  ),
  notes: list(str),
});

/** The values routes: a column's values with counts. */
export const valuesOutput = obj({
  column: str,
  values: list(obj({ value: str, label: str, count: num })),
  truncated: bool,
});
