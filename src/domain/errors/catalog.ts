/** The one table of error codes: code -> HTTP status and default message. Matches the spec's Errors table. */
export const ERROR_CATALOG = {
  'request.invalid': { status: 400, message: 'The request is malformed.' },
  'filter.unknown_key': { status: 400, message: 'Unknown filter key or field.' },
  'filter.unknown_value': { status: 400, message: 'Unknown value for a closed-list filter.' },
  'filter.rejected': { status: 422, message: 'The filter is outside what the filter language accepts.' },
  'cursor.expired': { status: 400, message: 'The cursor was minted by an earlier release; restart the search.' },
  'enrich.mode_unavailable': { status: 400, message: 'Only mode "stored" is available.' },
  'enrich.too_many_inputs': { status: 400, message: 'Too many enrichment inputs.' },
  'auth.invalid_key': { status: 401, message: 'The API key is missing, unknown or revoked.' },
  'account.suspended': { status: 403, message: 'The account is suspended.' },
  'contact_credits.exhausted': { status: 402, message: 'The contact credit cap is spent.' },
  'premium_credits.exhausted': { status: 402, message: 'Not enough premium credits.' },
  'column.not_found': { status: 404, message: 'The id or column does not exist, or the row was opted out.' },
  'export.not_found': { status: 404, message: 'The id or column does not exist, or the row was opted out.' },
  'alert.not_found': { status: 404, message: 'Unknown alert id.' },
  'alert.busy': { status: 409, message: 'The alert already has a queued or running job.' },
  'collect.not_found': { status: 404, message: 'Unknown collect job id.' },
  'plan.required': { status: 403, message: 'Creating alerts needs a paid plan.' },
  'export.expired': { status: 410, message: 'The export file expired or is no longer available.' },
  'export.running': { status: 409, message: 'One export already runs on the account.' },
  'export.no_matches': { status: 400, message: 'The filter matches nothing; no export was started.' },
  'rate.limited': { status: 429, message: 'Too many requests for this key.' },
  'data.unavailable': { status: 503, message: 'Data is unavailable for a short time.' },
  'query.timeout': { status: 504, message: 'The query passed its time budget and was stopped.' },
  'signals.below_minimum': { status: 400, message: 'The company page is below the 100 follower minimum.' },
  'alerts.limit_reached': { status: 403, message: 'The account already has 100 active alerts.' },
  'auth.oauth_required': { status: 403, message: 'This route does not accept an API key.' },
  'key.limit_reached': { status: 409, message: 'The account already has its one active key.' },
  'key.not_found': { status: 404, message: 'No active key with this id on this account.' },
  // Added by this service (codes are added, never repurposed); documented in docs/api.md "Error codes".
  'route.not_found': { status: 404, message: 'No such route.' },
  'idempotency.mismatch': { status: 409, message: 'This Idempotency-Key was used with another request body.' },
  'idempotency.in_progress': { status: 409, message: 'A request with this Idempotency-Key is still running.' },
  'request.origin_refused': {
    status: 403,
    message: 'The Origin of this request is not allowed to call the MCP server.',
  },
  'link.invalid': { status: 403, message: 'The download link is invalid or was altered.' },
  'domain_lists.limit_reached': {
    status: 409,
    message: 'The account holds as many saved domain lists, or domains in them, as it may.',
  },
  'account.not_found': { status: 404, message: 'No account with this id.' },
  'link.expired': { status: 410, message: 'The link expired.' },
  'upload.not_found': { status: 404, message: 'Unknown upload id.' },
  'upload.invalid_file': { status: 400, message: 'The file is not a readable CSV file.' },
  'upload.too_large': { status: 413, message: 'The file is larger than 15 MB.' },
  'upload.too_many_rows': { status: 400, message: 'The file holds more rows than one enrichment run takes.' },
  'upload.no_mappable_column': {
    status: 400,
    message: 'No column is mapped to an email, phone or profile URL.',
  },
  'upload.url_refused': { status: 400, message: 'The spreadsheet link is not an allowed public http(s) address.' },
  'upload.url_failed': { status: 400, message: 'The spreadsheet link could not be read.' },
  'upload.no_file': { status: 409, message: 'No file was uploaded yet.' },
  'upload.submitted': { status: 409, message: 'This upload was already started.' },
  'enrichment_run.not_found': { status: 404, message: 'Unknown enrichment run id.' },
  'enrichment_run.not_ready': { status: 409, message: 'The enrichment run has not completed.' },
  'audience.not_found': { status: 404, message: 'Unknown audience id.' },
  'audiences.limit_reached': { status: 409, message: 'The account holds as many saved audiences as it may.' },
  'request.not_found': { status: 404, message: 'No request with this id in the request log of this account.' },
  'webhooks.limit_reached': { status: 409, message: 'The account has as many webhook endpoints as it may.' },
  'webhook.not_found': { status: 404, message: 'Unknown webhook endpoint id.' },
  'webhook.delivery_not_found': { status: 404, message: 'Unknown delivery id for this webhook endpoint.' },
  'webhook.url_refused': { status: 400, message: 'The webhook URL is not an allowed public https address.' },
  'internal.error': { status: 500, message: 'Unexpected error; quote the request id to support.' },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/** Codes the spec itself lists; the rest are this service's additions. */
export const ADDED_ERROR_CODES: readonly ErrorCode[] = [
  'route.not_found',
  'internal.error',
  'idempotency.mismatch',
  'idempotency.in_progress',
  'request.origin_refused',
  'link.invalid',
  'domain_lists.limit_reached',
  'account.not_found',
  'link.expired',
  'upload.not_found',
  'upload.invalid_file',
  'upload.too_large',
  'upload.too_many_rows',
  'upload.no_mappable_column',
  'upload.url_refused',
  'upload.url_failed',
  'upload.no_file',
  'upload.submitted',
  'enrichment_run.not_found',
  'enrichment_run.not_ready',
  'audience.not_found',
  'audiences.limit_reached',
  'request.not_found',
  'webhooks.limit_reached',
  'webhook.not_found',
  'webhook.delivery_not_found',
  'webhook.url_refused',
];
export const SPEC_ERROR_CODES: readonly ErrorCode[] = (Object.keys(ERROR_CATALOG) as ErrorCode[]).filter(
  (c) => !ADDED_ERROR_CODES.includes(c),
);

/** The warning codes the spec lists (Errors, "Warning codes"). */
export const SPEC_WARNING_CODES = [
  'count_unavailable',
  'no_rows',
  'export_truncated',
  'duplicate_work_email',
  'duplicate_network',
  'off_domain',
  'deprecated',
  'max_followers_missing',
] as const;
/**
 * Warning codes added by this service (codes are added, never repurposed): `page_truncated`, a search page cut short
 * by the contact credits left (the export's `export_truncated` for a page).
 */
export const ADDED_WARNING_CODES = ['page_truncated'] as const;
export const WARNING_CODES = [...SPEC_WARNING_CODES, ...ADDED_WARNING_CODES] as const;
export type WarningCode = (typeof WARNING_CODES)[number];

export function statusOf(code: ErrorCode): number {
  return ERROR_CATALOG[code].status;
}
