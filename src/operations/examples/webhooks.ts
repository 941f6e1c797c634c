import type { ExampleTable } from './types.js';

const env = (data: unknown) => ({
  ok: true,
  request_id: 'req_Wh4kXq9TmQ2rLp0a',
  release: '0.1.0+r20261128T035934-mdFH',
  data,
  quota: {
    plan: 'unlimited',
    contact_credits_used: 0,
    month_remaining: 999391,
    today_remaining: 49391,
    binding: 'day',
    resets_at: '2026-11-11T00:00:00.000Z',
  },
  warnings: [],
});

const endpoint = {
  id: 'whk_3kTq9ZpX1mVb7RcA',
  url: 'https://hooks.example.com/cds',
  description: 'CRM sync',
  events: ['export.completed', 'export.failed'],
  credits_low_threshold: null,
  enabled: true,
  disabled_at: null,
  disabled_reason: null,
  health: 'new',
  failing_since: null,
  last_success_at: null,
  last_failure_at: null,
  previous_secret_expires_at: null,
  created_at: '2026-11-10T12:00:00.000Z',
  updated_at: '2026-11-10T12:00:00.000Z',
};

/** Webhook endpoints, their test event, log and replay: request and response examples. */
export const webhooksExamples = {
  'webhooks.create': [
    {
      summary: 'Send finished exports to a CRM',
      request: {
        body: {
          url: 'https://hooks.example.com/cds',
          events: ['export.completed', 'export.failed'],
          description: 'CRM sync',
        },
      },
      response: { status: 201, body: env({ ...endpoint, secret: 'whsec_MfKQ9r8GKYqXTwjWPYZqBLWvtP5XYqe2' }) },
    },
  ],
  'webhooks.list': [
    { summary: 'The endpoints of the account', request: {}, response: { status: 200, body: env([endpoint]) } },
  ],
  'webhooks.get': [
    {
      summary: 'One endpoint and its health',
      request: { params: { id: 'whk_3kTq9ZpX1mVb7RcA' } },
      response: { status: 200, body: env(endpoint) },
    },
  ],
  'webhooks.update': [
    {
      summary: 'Subscribe to alert leads as well',
      request: {
        params: { id: 'whk_3kTq9ZpX1mVb7RcA' },
        body: { events: ['export.completed', 'export.failed', 'alert.leads'] },
      },
      response: {
        status: 200,
        body: env({ ...endpoint, events: ['export.completed', 'export.failed', 'alert.leads'] }),
      },
    },
  ],
  'webhooks.rotate_secret': [
    {
      summary: 'A new secret; the old one signs beside it for 24 hours',
      request: { params: { id: 'whk_3kTq9ZpX1mVb7RcA' } },
      response: {
        status: 200,
        body: env({
          ...endpoint,
          previous_secret_expires_at: '2026-11-11T12:00:00.000Z',
          secret: 'whsec_Qm3nB0vYy7ZcT1pLkW8sXa2RdE5fGh6J',
        }),
      },
    },
  ],
  'webhooks.test': [
    {
      summary: 'Queue a ping to the endpoint',
      request: { params: { id: 'whk_3kTq9ZpX1mVb7RcA' } },
      response: {
        status: 202,
        body: env({
          event_id: 'evt_9sLq2WcXr4TzVb1M',
          delivery_id: 'dlv_Ht5Kp0aQz8YwNc3R',
          type: 'ping',
          created_at: '2026-11-10T12:00:00.000Z',
        }),
      },
    },
  ],
  'webhooks.deliveries': [
    {
      summary: 'The last attempts, newest first',
      request: { params: { id: 'whk_3kTq9ZpX1mVb7RcA' } },
      response: {
        status: 200,
        body: env([
          {
            delivery_id: 'dlv_Ht5Kp0aQz8YwNc3R',
            event_id: 'evt_9sLq2WcXr4TzVb1M',
            event: 'ping',
            attempt: 1,
            ok: true,
            status_code: 204,
            error: null,
            duration_ms: 41,
            at: '2026-11-10T12:00:00.250Z',
            next_retry_at: null,
          },
        ]),
      },
    },
  ],
  'webhooks.replay': [
    {
      summary: 'Send a delivery again, same webhook-id',
      request: { params: { id: 'whk_3kTq9ZpX1mVb7RcA', delivery_id: 'dlv_Ht5Kp0aQz8YwNc3R' } },
      response: {
        status: 202,
        body: env({
          delivery_id: 'dlv_Ht5Kp0aQz8YwNc3R',
          event_id: 'evt_9sLq2WcXr4TzVb1M',
          state: 'pending',
          next_attempt_at: '2026-11-10T12:00:01.000Z',
        }),
      },
    },
  ],
  'webhooks.delete': [
    {
      summary: 'Stop sending to the endpoint',
      request: { params: { id: 'whk_3kTq9ZpX1mVb7RcA' } },
      response: { status: 200, body: env({ id: 'whk_3kTq9ZpX1mVb7RcA', deleted: true }) },
    },
  ],
} satisfies ExampleTable;
