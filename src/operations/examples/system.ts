import type { ExampleTable } from './types.js';

/** System: request and response examples (answers of the seeded demo release, lists cut to two items). */
export const systemExamples = {
  'health.get': [
    {
      summary: 'Health of the service',
      request: {},
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_rTXhYXPh0wtl0qNE',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            status: 'ok',
            version: '0.1.0',
            engine: {
              ok: true,
              release: 'r20261128T035934-mdFH',
              contacts: 2000,
              companies: 300,
              point_reads: true,
              index: true,
            },
            state: { ok: true, adapter: 'sqlite', latency_ms: 0.11 },
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
  'service.health': [
    {
      summary: 'Health of the service (family B)',
      request: {},
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_k56Xt6kEl1DJC8AC',
          release: '0.1.0+r20261128T035934-mdFH',
          service: 'contact-data-service',
          version: '0.1.0',
          status: 'ok',
        },
      },
    },
  ],
} satisfies ExampleTable;
