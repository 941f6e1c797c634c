import type { ExampleTable } from './types.js';

/** Operator routes: request and response examples (answers of the seeded demo release, lists cut to two items). */
export const adminExamples = {
  'admin.accounts.create': [
    {
      summary: 'Create an account',
      request: { body: { plan: 'pro', name: 'Acme' } },
      response: {
        status: 201,
        body: {
          ok: true,
          request_id: 'req_111WFPV1WG1whXZs',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            id: 'acc_lIejtS9tG22verxM',
            name: 'Acme',
            status: 'active',
            billing_day: null,
            created_at: '2026-11-10T12:00:00.000Z',
            plan: {
              slug: 'pro',
              name: 'Pro',
              contact_credits: { kind: 'windows', daily_cap: 10000, monthly_cap: 100000 },
              premium_credits_monthly: 10000,
              alerts: true,
              max_active_alerts: 100,
            },
            api_key: 'cds_BNkXJZkpYCpvBNeBdisnQNqHsm5f0cxQkEh4gQcW',
          },
          warnings: [],
        },
      },
    },
  ],
  'admin.accounts.get': [
    {
      summary: 'One account',
      request: { params: { id: 'acc_lIejtS9tG22verxM' } },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_RGabDbtqrD1UqO00',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            id: 'acc_lIejtS9tG22verxM',
            name: 'Acme',
            status: 'active',
            billing_day: null,
            created_at: '2026-11-10T12:00:00.000Z',
            plan: {
              slug: 'pro',
              name: 'Pro',
              contact_credits: { kind: 'windows', daily_cap: 10000, monthly_cap: 100000 },
              premium_credits_monthly: 10000,
              alerts: true,
              max_active_alerts: 100,
            },
          },
          warnings: [],
        },
      },
    },
  ],
  'admin.accounts.suspend': [
    {
      summary: 'Suspend an account',
      request: { params: { id: 'acc_lIejtS9tG22verxM' } },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_YmQZ6XsmB2YcvWTZ',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            id: 'acc_lIejtS9tG22verxM',
            name: 'Acme',
            status: 'suspended',
            billing_day: null,
            created_at: '2026-11-10T12:00:00.000Z',
            plan: {
              slug: 'pro',
              name: 'Pro',
              contact_credits: { kind: 'windows', daily_cap: 10000, monthly_cap: 100000 },
              premium_credits_monthly: 10000,
              alerts: true,
              max_active_alerts: 100,
            },
          },
          warnings: [],
        },
      },
    },
  ],
  'admin.accounts.resume': [
    {
      summary: 'Resume an account',
      request: { params: { id: 'acc_lIejtS9tG22verxM' } },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_mQtMM9Frt3BPJbD4',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            id: 'acc_lIejtS9tG22verxM',
            name: 'Acme',
            status: 'active',
            billing_day: null,
            created_at: '2026-11-10T12:00:00.000Z',
            plan: {
              slug: 'pro',
              name: 'Pro',
              contact_credits: { kind: 'windows', daily_cap: 10000, monthly_cap: 100000 },
              premium_credits_monthly: 10000,
              alerts: true,
              max_active_alerts: 100,
            },
          },
          warnings: [],
        },
      },
    },
  ],
  'admin.optouts.list': [
    {
      summary: 'Opted-out emails',
      request: { query: { type: 'email', limit: 5 } },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_LtAdMzj2e6aUH2XW',
          release: '0.1.0+r20261128T035934-mdFH',
          data: [{ type: 'email', value: 'optout@example.com', created_at: '2026-11-10T12:00:00.000Z' }],
          page: { returned: 1, limit: 5, total: 1, next_cursor: null },
          warnings: [],
        },
      },
    },
  ],
  'admin.optouts.add': [
    {
      summary: 'Opt out an email',
      request: { body: { type: 'email', values: ['optout@example.com'] } },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_nWDOlEUGDzlG0nKd',
          release: '0.1.0+r20261128T035934-mdFH',
          data: { added: 1, already: 0, rejected: 0, rejects: [] },
          warnings: [],
        },
      },
    },
  ],
  'admin.optouts.remove': [
    {
      summary: 'Remove an opt-out',
      request: { body: { type: 'email', values: ['optout@example.com'] } },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_iyXHHglbM1hCST6A',
          release: '0.1.0+r20261128T035934-mdFH',
          data: { removed: 1, missing: 0, rejected: 0, rejects: [] },
          warnings: [],
        },
      },
    },
  ],
  'admin.optouts.audit': [
    {
      summary: 'Opt-out audit trail',
      request: { query: { limit: 5 } },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_doYI5DEXRZZsqokj',
          release: '0.1.0+r20261128T035934-mdFH',
          data: [
            { at: '2026-11-10T12:00:00.000Z', action: 'remove', actor: 'api:operator', type: 'email', count: 1 },
            { at: '2026-11-10T12:00:00.000Z', action: 'add', actor: 'api:operator', type: 'email', count: 1 },
          ],
          warnings: [],
        },
      },
    },
  ],
} satisfies ExampleTable;
