import { ERROR_CATALOG, WARNING_CODES } from '../../domain/errors/index.js';
import type { JsonSchema } from '../../face/json-schema.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Envelopes and blocks shared by every route (spec "Success envelope", "Error envelope"). */
export function componentSchemas(): Record<string, JsonSchema> {
  return {
    Quota: {
      type: 'object',
      description: 'Credit state after the request; field names are frozen.',
      required: ['plan', 'contact_credits_used', 'month_remaining', 'today_remaining', 'binding', 'resets_at'],
      properties: {
        plan: { type: 'string', description: 'Plan slug; caps are read from GET /v1/account.' },
        contact_credits_used: { type: 'integer', description: 'Contact credits this request spent.' },
        month_remaining: {
          type: 'integer',
          description: 'Contact credits left this billing month (free plan: left in the lifetime pool).',
        },
        today_remaining: { type: 'integer', description: 'Contact credits left this UTC day.' },
        binding: {
          type: 'string',
          enum: ['month', 'day'],
          description: 'The window that runs out first at the current pace.',
        },
        resets_at: {
          type: 'string',
          format: 'date-time',
          description: 'When the binding window resets (free plan: 9999-12-31T23:59:59.000Z).',
        },
      },
    },
    Page: {
      type: 'object',
      required: ['returned', 'limit', 'total', 'next_cursor'],
      properties: {
        returned: { type: 'integer', description: 'Rows in this page.' },
        limit: { type: 'integer', description: 'Page size requested.' },
        total: { type: ['integer', 'null'], description: 'Matching rows; null when the count passed its budget.' },
        next_cursor: {
          type: ['string', 'null'],
          description: 'Pass back unchanged for the next page; null on the last page.',
        },
      },
    },
    Warning: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: [...WARNING_CODES] },
        message: { type: 'string' },
        hint: { type: 'string' },
        keys_applied: { type: 'array', items: { type: 'string' } },
        resets_at: { type: 'string', format: 'date-time' },
      },
    },
    SuccessEnvelope: {
      type: 'object',
      description: 'Family A success. `data` depends on the route; `quota` is absent only on keyless health calls.',
      required: ['ok', 'request_id', 'release', 'warnings'],
      properties: {
        ok: { const: true },
        request_id: { type: 'string', description: 'Quote it to support.' },
        release: { type: 'string', description: 'Build and data release that served the response.' },
        data: { description: 'Route payload.' },
        page: ref('Page'),
        quota: ref('Quota'),
        warnings: { type: 'array', items: ref('Warning') },
      },
    },
    FamilyBBody: {
      type: 'object',
      description: 'Family B success: route fields at the top level beside ok, request_id and release.',
      required: ['ok'],
      properties: { ok: { const: true }, request_id: { type: 'string' }, release: { type: 'string' } },
      additionalProperties: true,
    },
    Error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: {
          type: 'string',
          enum: Object.keys(ERROR_CATALOG),
          description: 'Dotted noun.reason; codes are added, never repurposed.',
        },
        message: { type: 'string', description: 'One sentence.' },
        hint: {
          type: 'string',
          description: 'Suggested next action; on a closed-list value it prints the allowed slugs.',
        },
        field: { type: 'string', description: 'Dotted path of the offending field, such as filter.country.' },
        details: {
          type: 'object',
          additionalProperties: true,
          description:
            'Per code: binding and resets_at (contact_credits.exhausted), required, available, allowance, resets_at,' +
            ' upgrade_url (premium_credits.exhausted), followers (signals.below_minimum).',
        },
      },
    },
    ErrorEnvelope: {
      type: 'object',
      required: ['ok', 'request_id', 'error'],
      properties: {
        ok: { const: false },
        request_id: { type: 'string' },
        release: { type: 'string' },
        error: ref('Error'),
        quota: {
          ...ref('Quota'),
          description: 'Present once the account is known; absent for a missing or invalid key.',
        },
      },
    },
  };
}

export const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'API key',
    description: 'Family A (and accepted by family B and MCP): Authorization: Bearer <API_KEY>.',
  },
  apiKeyHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'Family B and MCP: X-API-Key: <API_KEY>.',
  },
  operatorToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'Operator routes: Authorization: Bearer <CDS_ADMIN_TOKEN>; an API key answers 403 auth.oauth_required.',
  },
} as const;
