import type { ExampleTable } from './types.js';

/** Family A contacts: count, search, enrichment, exports: request and response examples (answers of the seeded demo release, lists cut to two items). */
export const contactsExamples = {
  'contacts.count': [
    {
      summary: 'Count contacts in the US at VP level',
      request: { body: { filter: { countries: ['us'], seniority: ['vp'] } } },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_DU0OEiv2Ecim8Xnx',
          release: '0.1.0+r20261128T035934-mdFH',
          data: { count: 42 },
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
  'contacts.search': [
    {
      summary: 'First page of US contacts',
      request: { body: { filter: { countries: ['us'] }, columns: ['name', 'title', 'company', 'country'], limit: 2 } },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_AXWsqNjgum15d2lS',
          release: '0.1.0+r20261128T035934-mdFH',
          data: [
            {
              id: 'per_000000cvnjnm',
              name: 'María Pérez',
              title: 'Senior Office Administrator',
              company: 'Openlab SAS',
              country: 'us',
            },
            {
              id: 'per_00z9d1uatm9i',
              name: 'John N. McDonald',
              title: 'President',
              company: 'Harborstreet Talent',
              country: 'us',
            },
          ],
          page: {
            returned: 2,
            limit: 2,
            total: 840,
            next_cursor:
              'eyJyIjoiMC4xLjArcjIwMjYxMTI4VDAzNTkzNC1tZEZIIiwicSI6IlFSV3MxUXBrci1TcElPWTBpMENoWFoiLCJrIjoyfQ.OZMZSaRzJ-zhX6WOcUpThM8vjE7kPp1V3x6Q7_v6cLc',
          },
          quota: {
            plan: 'unlimited',
            contact_credits_used: 2,
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
  'enrichments.create': [
    {
      summary: 'Enrich a contact from a work email',
      request: { body: { inputs: ['liam.baker@westernbeaconlabs.com'] } },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_F2PLu1nWbqSwEsc1',
          release: '0.1.0+r20261128T035934-mdFH',
          data: [
            {
              input: 'liam.baker@westernbeaconlabs.com',
              matched: true,
              off_domain: false,
              contact: {
                id: 'per_05okz14qnc09',
                name: 'Liam Baker',
                title: 'Hardware Engineer',
                company: 'Western Beacon Labs',
                company_domain: 'westernbeaconlabs.com',
                work_email: 'liam.baker@westernbeaconlabs.com',
                country: 'us',
                seniority: 'entry',
                last_updated: '2026-05',
                mobile_phone: '+18019518958',
                direct_phone: null,
                has_phone: true,
                function: 'engineering',
                location: 'Salt Lake City, Utah, United States',
                email_status: 'valid',
                company_size: '1K-5K',
                company_industries: ['software_development', 'mattress_and_blinds_manufacturing'],
                company_network: 'https://www.network.com/company/western-beacon-labs',
                network: 'https://www.network.com/in/lbaker3',
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
  'exports.create': [
    {
      summary: 'Export US contacts to CSV',
      request: { body: { filter: { countries: ['us'] }, max_rows: 5 } },
      response: {
        status: 202,
        body: {
          ok: true,
          request_id: 'req_CXi12mUnM2Bv5CoT',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            export_id: 'exp_tzcgH5vmQwbWUTZk',
            id: 'exp_tzcgH5vmQwbWUTZk',
            status: 'queued',
            format: 'csv',
            rows_available: 840,
            rows_to_export: 5,
            truncated: true,
            truncation_reason: 'max_rows',
            created_at: '2026-11-10T12:00:00.000Z',
          },
          quota: {
            plan: 'unlimited',
            contact_credits_used: 0,
            month_remaining: 999995,
            today_remaining: 49995,
            binding: 'day',
            resets_at: '2026-11-11T00:00:00.000Z',
          },
          warnings: [
            {
              code: 'export_truncated',
              message: 'The export holds 5 of 840 matching rows: max_rows cut it.',
              hint: 'Raise max_rows to export more of the audience.',
            },
          ],
        },
      },
    },
  ],
  'exports.get': [
    {
      summary: 'Status of an export',
      request: { params: { id: 'exp_tzcgH5vmQwbWUTZk' } },
      response: {
        status: 200,
        body: {
          ok: true,
          request_id: 'req_qWsY8KCccCNivYGD',
          release: '0.1.0+r20261128T035934-mdFH',
          data: {
            export_id: 'exp_tzcgH5vmQwbWUTZk',
            id: 'exp_tzcgH5vmQwbWUTZk',
            status: 'running',
            format: 'csv',
            rows_available: 840,
            rows_to_export: 5,
            rows_exported: 0,
            truncated: true,
            truncation_reason: 'max_rows',
            created_at: '2026-11-10T12:00:00.000Z',
            started_at: '2026-11-10T12:00:00.000Z',
            completed_at: null,
            expires_at: null,
            url: null,
            error: null,
          },
          quota: {
            plan: 'unlimited',
            contact_credits_used: 0,
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
