import type { ExampleTable, OperationExample } from './types.js';

/** The column schemas and their values: request and response examples (answers of the seeded demo release, lists cut to two items). */
export const schemaExamples = {
  'contacts.schema': [
    {
      summary: 'The contact columns',
      request: {},
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_iLUrfqet9AQROe40',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            columns: [
              {
                name: 'id',
                label: 'Contact ID',
                type: 'string',
                description: 'Contact id, prefix per_.',
                nullable: false,
                values_route: null,
              },
              {
                name: 'name',
                label: 'Full Name',
                type: 'string',
                description: 'Full name.',
                nullable: false,
                values_route: null,
              },
            ],
            filter_keys: [
              {
                key: 'countries',
                type: 'list',
                description: "Person's country: ISO-2 codes or English names.",
                column: 'country',
                excludes: 'exclude_countries',
                values_route: '/v1/contacts/schema/country/values',
                aliases: [],
                label: 'Country',
                group: 'person',
                help: 'Where the person lives.',
                pair: 'exclude_countries',
                range_end: null,
              },
              {
                key: 'exclude_countries',
                type: 'list',
                description: 'NOT countries.',
                column: 'country',
                excludes: null,
                values_route: '/v1/contacts/schema/country/values',
                aliases: [],
                label: 'Not in country',
                group: 'person',
                help: null,
                pair: null,
                range_end: null,
              },
            ],
            notes: [
              'Values inside a list key are OR; different keys are AND; an exclude_* key is the NOT of its twin.',
              'Range keys: _min/_max are inclusive, _after/_before are exclusive.',
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
  'contacts.values': [
    {
      summary: 'Countries, most held first',
      request: { params: { column: 'country' }, query: { sort: 'count', limit: 2 } },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_cQf47LYzzQGjdX72',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            column: 'country',
            values: [
              { value: 'us', label: 'United States', count: 440 },
              { value: 'gb', label: 'United Kingdom', count: 81 },
            ],
            truncated: true,
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
    } as OperationExample,
    {
      summary: 'Values of the seniority column',
      request: { params: { column: 'seniority' }, query: { limit: 5 } },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_cQf47LYzzQGjdX71',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            column: 'seniority',
            values: [
              { value: 'c_level', label: 'C-level', count: 52 },
              { value: 'vp', label: 'VP', count: 96 },
            ],
            truncated: true,
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
  'companies.schema': [
    {
      summary: 'The company columns',
      request: {},
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_5At4B8AfoqTYMR6I',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            columns: [
              {
                name: 'id',
                label: 'Company ID',
                type: 'string',
                description: 'Company id, prefix com_.',
                nullable: false,
                values_route: null,
              },
              {
                name: 'name',
                label: 'Company Name',
                type: 'string',
                description: 'Company name.',
                nullable: false,
                values_route: null,
              },
            ],
            filter_keys: [
              {
                key: 'ids',
                type: 'list',
                description: 'Company ids (com_).',
                column: 'id',
                excludes: null,
                values_route: null,
                aliases: [],
                label: 'Company ID',
                group: 'company',
                help: 'Company ids (com_…), separated by commas.',
                pair: null,
                range_end: null,
              },
              {
                key: 'domains',
                type: 'list',
                description: 'Website domains; a full URL reduces to a bare domain.',
                column: 'domain',
                excludes: 'exclude_domains',
                values_route: null,
                aliases: [],
                label: 'Website',
                group: 'company',
                help: 'Domains such as acme.com, separated by commas.',
                pair: null,
                range_end: null,
              },
            ],
            notes: [
              'Values inside a list key are OR; different keys are AND; an exclude_* key is the NOT of its twin.',
              'Range keys: _min/_max are inclusive, _after/_before are exclusive.',
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
  'companies.values': [
    {
      summary: 'Values of the industries column',
      request: { params: { column: 'industries' }, query: { limit: 5 } },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_T1DydRE8PzJiYZko',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            column: 'industries',
            values: [
              { value: 'accommodation_services', label: 'Accommodation Services', count: 1 },
              {
                value: 'bed_and_breakfasts_hostels_homestays',
                label: 'Bed-and-Breakfasts, Hostels, Homestays',
                count: 0,
              },
            ],
            truncated: true,
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
