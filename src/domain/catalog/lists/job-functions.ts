import type { ClosedList } from '../types.js';

/** JobFunction (frozen, 21 values). Labels double as family B department names. */
export const JOB_FUNCTIONS: ClosedList = {
  name: 'function',
  description: 'Job function of the current main role, derived from the title.',
  values: [
    { slug: 'operations', label: 'Operations' },
    { slug: 'general_management', label: 'General Management', aliases: ['management', 'consulting'] },
    { slug: 'sales_and_bizdev', label: 'Sales & Business Development', aliases: ['sales', 'business development'] },
    { slug: 'information_technology', label: 'Information Technology', aliases: ['it'] },
    { slug: 'education', label: 'Education' },
    { slug: 'healthcare_and_social_services', label: 'Healthcare & Social Services', aliases: ['healthcare'] },
    { slug: 'finance_and_accounting', label: 'Finance & Accounting', aliases: ['finance', 'accounting'] },
    { slug: 'manufacturing_and_production', label: 'Manufacturing & Production', aliases: ['manufacturing'] },
    { slug: 'engineering', label: 'Engineering' },
    { slug: 'customer_service', label: 'Customer Service', aliases: ['customer success', 'support'] },
    { slug: 'government_and_public_safety', label: 'Government & Public Safety', aliases: ['government'] },
    { slug: 'marketing_and_advertising', label: 'Marketing & Advertising', aliases: ['marketing', 'advertising'] },
    { slug: 'human_resources', label: 'Human Resources', aliases: ['hr', 'people'] },
    { slug: 'arts_and_creative', label: 'Arts & Creative', aliases: ['design', 'creative'] },
    { slug: 'construction_and_trades', label: 'Construction & Trades', aliases: ['construction'] },
    { slug: 'legal', label: 'Legal' },
    { slug: 'supply_chain_and_logistics', label: 'Supply Chain & Logistics', aliases: ['logistics', 'supply chain'] },
    { slug: 'procurement', label: 'Procurement', aliases: ['purchasing'] },
    { slug: 'writing_and_editorial', label: 'Writing & Editorial', aliases: ['editorial', 'writing'] },
    { slug: 'research_and_science', label: 'Research & Science', aliases: ['research', 'science', 'r&d'] },
    { slug: 'other', label: 'Other' },
  ],
};
