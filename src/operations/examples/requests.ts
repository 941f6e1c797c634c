import type { ExampleTable } from './types.js';

/** The request log: request and response examples. */
export const requestsExamples = {
  'requests.list': [
    {
      summary: "The account's latest requests",
      request: {
        query: { limit: 20 },
      },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_L8mN0oCw3DyA5bTe',
          release: '0.1.0+r20261128T035934-mdFH',
          data: [
            {
              request_id: 'req_K7lM9nBv2CxZ4aSd',
              at: '2026-11-28T10:12:03.120Z',
              face: 'rest',
              method: 'GET',
              route: '/v1/exports/:id',
              operation: 'exports.get',
              status: 404,
              error_code: 'export.not_found',
              credits: 0,
              duration_ms: 2.4,
              key_prefix: 'cds_live_7Hq2',
              client: null,
            },
          ],
          page: {
            returned: 1,
            limit: 20,
            total: 1,
            next_cursor: null,
          },
          quota: {
            plan: 'unlimited',
            contact_credits_used: 0,
            month_remaining: 1000000,
            today_remaining: 50000,
            binding: 'day',
            resets_at: '2026-11-11T00:00:00.000Z',
          },
          warnings: [],
        },
      },
    },
  ],
  'requests.get': [
    {
      summary: 'One request by its request id',
      request: {
        params: {
          request_id: 'req_K7lM9nBv2CxZ4aSd',
        },
      },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_M9nO1pDx4EzB6cUf',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            request_id: 'req_K7lM9nBv2CxZ4aSd',
            at: '2026-11-28T10:12:03.120Z',
            face: 'rest',
            method: 'GET',
            route: '/v1/exports/:id',
            operation: 'exports.get',
            status: 404,
            error_code: 'export.not_found',
            credits: 0,
            duration_ms: 2.4,
            key_prefix: 'cds_live_7Hq2',
            client: null,
          },
          quota: {
            plan: 'unlimited',
            contact_credits_used: 0,
            month_remaining: 1000000,
            today_remaining: 50000,
            binding: 'day',
            resets_at: '2026-11-11T00:00:00.000Z',
          },
          warnings: [],
        },
      },
    },
  ],
} satisfies ExampleTable;
