import type { ExampleTable } from './types.js';

/** Saved audiences: request and response examples (answers of the seeded demo release). */
export const audiencesExamples = {
  'audiences.create': [
    {
      summary: 'Save US executives as an audience',
      request: {
        body: {
          name: 'US executives',
          description: 'VPs and C-level in the United States',
          filter: {
            countries: ['us'],
            seniority: ['vp', 'c_level'],
          },
        },
      },
      response: {
        status: 201,
        body: {
          ok: true,
          request_id: 'req_A7bQ2xLm9PzK4wRt',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            id: 'aud_Vx3kQm9TzR2pLw8N',
            name: 'US executives',
            description: 'VPs and C-level in the United States',
            filter: {
              countries: ['us'],
              seniority: ['vp', 'c_level'],
            },
            created_at: '2026-11-28T10:00:00.000Z',
            updated_at: '2026-11-28T10:00:00.000Z',
            last_count: null,
            history: [],
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
  'audiences.list': [
    {
      summary: 'The saved audiences, newest first',
      request: {
        query: {
          limit: 20,
        },
      },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_B8cR3yMn0QaL5xSu',
          release: '0.1.0+r20261128T035934-mdFH',
          data: [
            {
              id: 'aud_Vx3kQm9TzR2pLw8N',
              name: 'US executives',
              description: 'VPs and C-level in the United States',
              filter: {
                countries: ['us'],
                seniority: ['vp', 'c_level'],
              },
              created_at: '2026-11-28T10:00:00.000Z',
              updated_at: '2026-11-28T10:00:00.000Z',
              last_count: null,
              history: [],
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
  'audiences.get': [
    {
      summary: 'One audience with its history',
      request: {
        params: {
          id: 'aud_Vx3kQm9TzR2pLw8N',
        },
      },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_C9dS4zNo1RbM6yTv',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            id: 'aud_Vx3kQm9TzR2pLw8N',
            name: 'US executives',
            description: 'VPs and C-level in the United States',
            filter: {
              countries: ['us'],
              seniority: ['vp', 'c_level'],
            },
            created_at: '2026-11-28T10:00:00.000Z',
            updated_at: '2026-11-28T10:00:00.000Z',
            last_count: null,
            history: [],
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
  'audiences.count': [
    {
      summary: 'Count an audience and record the count for this release',
      request: {
        params: {
          id: 'aud_Vx3kQm9TzR2pLw8N',
        },
      },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_D0eT5aOp2ScN7zUw',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            count: 118,
            release: 'r20261128T035934-mdFH',
            audience: {
              id: 'aud_Vx3kQm9TzR2pLw8N',
              name: 'US executives',
              description: 'VPs and C-level in the United States',
              filter: {
                countries: ['us'],
                seniority: ['vp', 'c_level'],
              },
              created_at: '2026-11-28T10:00:00.000Z',
              updated_at: '2026-11-28T10:00:00.000Z',
              last_count: {
                release: 'r20261128T035934-mdFH',
                count: 118,
                counted_at: '2026-11-28T10:15:00.000Z',
              },
              history: [
                {
                  release: 'r20261128T035934-mdFH',
                  count: 118,
                  counted_at: '2026-11-28T10:15:00.000Z',
                },
              ],
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
  'audiences.update': [
    {
      summary: 'Rename an audience (its history stays: the filter did not change)',
      request: {
        params: {
          id: 'aud_Vx3kQm9TzR2pLw8N',
        },
        body: {
          name: 'US executives (2027)',
        },
      },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_E1fU6bPq3TdO8aVx',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            id: 'aud_Vx3kQm9TzR2pLw8N',
            name: 'US executives (2027)',
            description: 'VPs and C-level in the United States',
            filter: {
              countries: ['us'],
              seniority: ['vp', 'c_level'],
            },
            created_at: '2026-11-28T10:00:00.000Z',
            updated_at: '2026-11-28T10:20:00.000Z',
            last_count: {
              release: 'r20261128T035934-mdFH',
              count: 118,
              counted_at: '2026-11-28T10:15:00.000Z',
            },
            history: [
              {
                release: 'r20261128T035934-mdFH',
                count: 118,
                counted_at: '2026-11-28T10:15:00.000Z',
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
  'audiences.delete': [
    {
      summary: 'Delete an audience',
      request: {
        params: {
          id: 'aud_Vx3kQm9TzR2pLw8N',
        },
      },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_F2gV7cQr4UeP9bWy',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            id: 'aud_Vx3kQm9TzR2pLw8N',
            deleted: true,
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
