import type { ExampleTable } from './types.js';

/** CSV enrichment runs and upload links over REST: request and response examples. */
export const enrichmentRunsExamples = {
  'enrichment_uploads.create': [
    {
      summary: 'A new upload page for a CSV to enrich',
      request: {
        body: {},
      },
      response: {
        status: 201,
        body: {
          ok: true,
          request_id: 'req_G3hW8dRs5VfQ0cXz',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            upload_id: 'upl_R5tY7uI9oP1aS3dF',
            upload_url: 'https://cds.example.com/upload/upl_R5tY7uI9oP1aS3dF?expires=1795942800&sig=Wm3pQ8rT1yU5',
            expires_at: '2026-11-29T10:00:00.000Z',
            expires_in_seconds: 86400,
            max_file_bytes: 15728640,
            max_rows: 50000,
            mapping_fields: [
              {
                field: 'email',
                label: 'Email',
              },
              {
                field: 'phone',
                label: 'Phone',
              },
            ],
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
  'enrichment_runs.list': [
    {
      summary: "The account's CSV enrichment runs, newest first",
      request: {
        query: {
          limit: 20,
        },
      },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_H4iX9eSt6WgR1dYa',
          release: '0.1.0+r20261128T035934-mdFH',
          data: [
            {
              id: 'enr_K4mT8qWz2XvB7nLp',
              upload_id: 'upl_R5tY7uI9oP1aS3dF',
              file_name: 'leads.csv',
              status: 'completed',
              rows: 1,
              processed_rows: 1,
              matched: 1,
              credits: 1,
              credits_held: 0,
              truncated: false,
              error: null,
              created_at: '2026-11-28T10:00:00.000Z',
              finished_at: '2026-11-28T10:00:02.000Z',
            },
          ],
          page: {
            returned: 1,
            limit: 20,
            total: null,
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
  'enrichment_runs.get': [
    {
      summary: 'A completed run with its result link',
      request: {
        params: {
          id: 'enr_K4mT8qWz2XvB7nLp',
        },
      },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_I5jY0fTu7XhS2eZb',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            id: 'enr_K4mT8qWz2XvB7nLp',
            upload_id: 'upl_R5tY7uI9oP1aS3dF',
            file_name: 'leads.csv',
            status: 'completed',
            rows: 1,
            processed_rows: 1,
            matched: 1,
            credits: 1,
            credits_held: 0,
            truncated: false,
            error: null,
            created_at: '2026-11-28T10:00:00.000Z',
            finished_at: '2026-11-28T10:00:02.000Z',
            warnings: [],
            sample: [
              {
                row: 1,
                input: 'dana.reyes@northwind.example',
                contact: { id: 'per_Q2wE4rT6yU8iO0pA', name: 'Dana Reyes' },
                status: 'matched',
              },
            ],
            result_url:
              'https://cds.example.com/files/enrichments/enr_K4mT8qWz2XvB7nLp.csv?expires=1795860000&key=key_H6jK8lZ0xC2vB4nM&sig=3xJq0TzA5cVw',
            result_expires_at: '2026-11-28T11:00:00.000Z',
            result_columns: ['Match status', 'Full Name', 'Title', 'Company', 'Company Domain', 'Work Email'],
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
