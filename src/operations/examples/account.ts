import type { ExampleTable } from './types.js';

/** The account, its keys and feedback: request and response examples (answers of the seeded demo release, lists cut to two items). */
export const accountExamples = {
  'account.get': [
    {
      summary: 'The calling account',
      request: {},
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_7obLpIOWTcnoD9BZ',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            id: 'acc_Nzg8XqYTsg337rCy',
            name: 'Acme',
            status: 'active',
            billing_day: null,
            created_at: '2026-11-10T12:00:00.000Z',
            plan: {
              slug: 'unlimited',
              name: 'Unlimited',
              contact_credits: {
                kind: 'unlimited',
                fair_use: {
                  search: { daily: 50000, monthly: 1000000 },
                  export: { daily: 50000, monthly: 1000000 },
                  enrich: { daily: 50000, monthly: 1000000 },
                },
              },
              premium_credits_monthly: 50000,
              alerts: true,
              max_active_alerts: 100,
            },
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
  'credits.get': [
    {
      summary: 'Credits left',
      request: {},
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_m1Wi4OWOcR06JXmr',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            plan: 'unlimited',
            contact: { kind: 'unlimited' },
            premium: { allowance: 50000, used: 0, held: 0, available: 50000, resets_at: '2026-12-01T00:00:00.000Z' },
            fair_use: {
              search: {
                day: {
                  cap: 50000,
                  used: 0,
                  held: 0,
                  remaining: 50000,
                  starts_at: '2026-11-10T00:00:00.000Z',
                  resets_at: '2026-11-11T00:00:00.000Z',
                },
                month: {
                  cap: 1000000,
                  used: 0,
                  held: 0,
                  remaining: 1000000,
                  starts_at: '2026-11-01T00:00:00.000Z',
                  resets_at: '2026-12-01T00:00:00.000Z',
                },
              },
              export: {
                day: {
                  cap: 50000,
                  used: 0,
                  held: 0,
                  remaining: 50000,
                  starts_at: '2026-11-10T00:00:00.000Z',
                  resets_at: '2026-11-11T00:00:00.000Z',
                },
                month: {
                  cap: 1000000,
                  used: 0,
                  held: 0,
                  remaining: 1000000,
                  starts_at: '2026-11-01T00:00:00.000Z',
                  resets_at: '2026-12-01T00:00:00.000Z',
                },
              },
              enrich: {
                day: {
                  cap: 50000,
                  used: 0,
                  held: 0,
                  remaining: 50000,
                  starts_at: '2026-11-10T00:00:00.000Z',
                  resets_at: '2026-11-11T00:00:00.000Z',
                },
                month: {
                  cap: 1000000,
                  used: 0,
                  held: 0,
                  remaining: 1000000,
                  starts_at: '2026-11-01T00:00:00.000Z',
                  resets_at: '2026-12-01T00:00:00.000Z',
                },
              },
            },
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
  'keys.list': [
    {
      summary: "The account's keys",
      request: {},
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_7gxzxUIKc9bPVPAd',
          release: '0.1.0+r20261128T035934-mdFH',
          data: [
            {
              id: 'key_1NUVDPC58fAtsA7Q',
              prefix: 'zHnJZRg4',
              name: 'test',
              created_at: '2026-11-10T12:00:00.000Z',
              revoked_at: null,
              last_used_at: '2026-11-10T12:00:00.000Z',
              active: true,
            },
          ],
          quota: {
            plan: 'unlimited',
            contact_credits_used: 0,
            month_remaining: 999391,
            today_remaining: 49391,
            binding: 'day',
            resets_at: '2026-11-11T00:00:00.000Z',
          },
          warnings: [],
        },
      },
    },
  ],
  'keys.create': [
    {
      summary: 'Create a key',
      request: { body: { name: 'CRM sync' } },
      response: {
        status: 201,
        body: {
          ok: true,
          request_id: 'req_fRJxtpbLgPDOoZ3U',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            id: 'key_6ZJO2fWbxehqaTFF',
            prefix: 'VwwddEAb',
            name: 'CRM sync',
            created_at: '2026-11-10T12:00:00.000Z',
            revoked_at: null,
            last_used_at: null,
            active: true,
            api_key: 'cds_VwwddEAbaX3kP9qL2mV7tR4wZ8yB1nC6dF0gH5jK',
          },
          quota: {
            plan: 'unlimited',
            contact_credits_used: 0,
            month_remaining: 999391,
            today_remaining: 49391,
            binding: 'day',
            resets_at: '2026-11-11T00:00:00.000Z',
          },
          warnings: [],
        },
      },
    },
  ],
  'keys.revoke': [
    {
      summary: 'Revoke the active key',
      request: { params: { id: 'key_1NUVDPC58fAtsA7Q' } },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_s7tCm7Je3QeQfXCa',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            id: 'key_1NUVDPC58fAtsA7Q',
            prefix: 'zHnJZRg4',
            name: 'test',
            created_at: '2026-11-10T12:00:00.000Z',
            revoked_at: '2026-11-10T12:00:00.000Z',
            last_used_at: '2026-11-10T12:00:00.000Z',
            active: false,
          },
          quota: {
            plan: 'unlimited',
            contact_credits_used: 0,
            month_remaining: 999391,
            today_remaining: 49391,
            binding: 'day',
            resets_at: '2026-11-11T00:00:00.000Z',
          },
          warnings: [],
        },
      },
    },
  ],
  'feedback.send': [
    {
      summary: 'Send feedback',
      request: { body: { message: 'The seniority filter is great.', category: 'bug' } },
      response: {
        status: 201,
        body: {
          ok: true,
          request_id: 'req_6k9Rr4yuKvG7Hr59',
          release: '0.1.0+r20261128T035934-mdFH',
          data: { id: 'fbk_SVk6noqIVhawG3GY', created_at: '2026-11-10T12:00:00.000Z' },
          quota: {
            plan: 'unlimited',
            contact_credits_used: 0,
            month_remaining: 999391,
            today_remaining: 49391,
            binding: 'day',
            resets_at: '2026-11-11T00:00:00.000Z',
          },
          warnings: [],
        },
      },
    },
  ],
} satisfies ExampleTable;
