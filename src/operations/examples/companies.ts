import type { ExampleTable } from './types.js';

/** Family A companies: request and response examples (answers of the seeded demo release, lists cut to two items). */
export const companiesExamples = {
  'companies.count': [
    {
      summary: 'Count companies headquartered in the US',
      request: { body: { filter: { hq_countries: ['us'] } } },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_V1G4a5RkDzHdo9xJ',
          release: '0.1.0+r20261128T035934-mdFH',
          data: { count: 106 },
          quota: {
            plan: 'unlimited',
            contact_credits_used: 0,
            month_remaining: 999998,
            today_remaining: 49998,
            binding: 'day',
            resets_at: '2026-11-11T00:00:00.000Z',
          },
          warnings: [],
        },
      },
    },
  ],
  'companies.search': [
    {
      summary: 'First page of companies',
      request: { body: { filter: {}, limit: 2 } },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_3Xv9Y3bZt8vO7HrI',
          release: '0.1.0+r20261128T035934-mdFH',
          data: [
            {
              id: 'com_000001basaws',
              name: 'Heritage Lantern Pte Ltd',
              domain: 'heritage-lantern.com',
              network: 'https://www.network.com/company/heritage-lantern',
              headcount_band: '11-50',
              employee_count: 38,
              founded_year: null,
              revenue_range: '1M-10M',
              industries: ['events_services'],
              hq_country: 'sg',
              contact_count: 4,
            },
            {
              id: 'com_015it0btoqjl',
              name: 'Oriium',
              domain: 'oriium.ai',
              network: 'https://www.network.com/company/oriium',
              headcount_band: '5K-10K',
              employee_count: 5762,
              founded_year: null,
              revenue_range: '1B+',
              industries: ['urban_transit_services', 'it_services_and_it_consulting'],
              hq_country: 'il',
              contact_count: 54,
            },
          ],
          page: {
            returned: 2,
            limit: 2,
            total: 300,
            next_cursor:
              'eyJyIjoiMC4xLjArcjIwMjYxMTI4VDAzNTkzNC1tZEZIIiwicSI6ImhBNjJoMkU0WjJzZFY1Z2VuN2lFWl8iLCJrIjoyfQ.IhDp0gaJjP1GFtiOHzbWXKUSdZtWxI2BAwmxYlRwtbU',
          },
          quota: {
            plan: 'unlimited',
            contact_credits_used: 2,
            month_remaining: 999996,
            today_remaining: 49996,
            binding: 'day',
            resets_at: '2026-11-11T00:00:00.000Z',
          },
          warnings: [],
        },
      },
    },
  ],
  'companies.lookup': [
    {
      summary: 'Look up a company by domain',
      request: { body: { inputs: ['heritage-lantern.com'] } },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_Q5LhfCANY37mMxyl',
          release: '0.1.0+r20261128T035934-mdFH',
          data: [
            {
              input: 'heritage-lantern.com',
              matched: true,
              company: {
                id: 'com_000001basaws',
                name: 'Heritage Lantern Pte Ltd',
                domain: 'heritage-lantern.com',
                network: 'https://www.network.com/company/heritage-lantern',
                headcount_band: '11-50',
                employee_count: 38,
                founded_year: null,
                revenue_range: '1M-10M',
                industries: ['events_services'],
                hq_country: 'sg',
                contact_count: 4,
              },
            },
          ],
          quota: {
            plan: 'unlimited',
            contact_credits_used: 1,
            month_remaining: 999995,
            today_remaining: 49995,
            binding: 'day',
            resets_at: '2026-11-11T00:00:00.000Z',
          },
          warnings: [],
        },
      },
    },
  ],
} satisfies ExampleTable;
