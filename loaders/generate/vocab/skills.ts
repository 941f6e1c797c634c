/** Skills as profiles list them (mixed case; the loader lowercases), per job function plus common ones. */
const l = (s: string): string[] => s.split(',').map((x) => x.trim());

export const COMMON_SKILLS = l(
  'Leadership,Communication,Project Management,Microsoft Excel,Team Management,Public Speaking,Strategic Planning,' +
    'Problem Solving,Negotiation,Microsoft Office,Customer Service,Time Management,Teamwork,Research,Analytical Skills',
);

export const FUNCTION_SKILLS: Readonly<Record<string, readonly string[]>> = {
  operations: l(
    'Operations Management,Process Improvement,Lean Six Sigma,Vendor Management,Budgeting,Facilities Management,' +
      'Scheduling,Business Process,Change Management,KPI Tracking',
  ),
  general_management: l(
    'Strategy,Business Strategy,Management Consulting,P&L Management,Mergers & Acquisitions,Business Development,' +
      'Product Management,Executive Leadership,Corporate Strategy,Stakeholder Management',
  ),
  sales_and_bizdev: l(
    'Sales,B2B Sales,SaaS Sales,Salesforce,Lead Generation,Cold Calling,Account Management,Solution Selling,' +
      'Pipeline Management,CRM,Enterprise Sales,Channel Partnerships,MEDDIC,Forecasting',
  ),
  information_technology: l(
    'IT Infrastructure,Active Directory,Networking,ITIL,Cybersecurity,Windows Server,Linux,SQL,Data Analysis,Cloud ' +
      'Computing,VMware,Help Desk Support,Power BI,Tableau',
  ),
  education: l(
    'Teaching,Curriculum Development,Classroom Management,Lesson Planning,Higher Education,E-Learning,Tutoring,' +
      'Special Education,Educational Technology,Student Engagement',
  ),
  healthcare_and_social_services: l(
    'Patient Care,Nursing,Clinical Research,Healthcare,EMR,BLS,Case Management,Medicine,Patient Safety,Mental ' +
      'Health,Social Work,Pharmacy',
  ),
  finance_and_accounting: l(
    'Financial Analysis,Accounting,Financial Modeling,Budgeting,Forecasting,GAAP,IFRS,Auditing,Tax,Excel,QuickBooks,' +
      'SAP,Corporate Finance,Valuation',
  ),
  manufacturing_and_production: l(
    'Manufacturing,Lean Manufacturing,Quality Control,Six Sigma,Production Planning,5S,Kaizen,ISO 9001,Root Cause ' +
      'Analysis,Preventive Maintenance',
  ),
  engineering: l(
    'Python,Java,JavaScript,TypeScript,React,Node.js,Go,C++,AWS,Kubernetes,Docker,SQL,Git,Machine Learning,System ' +
      'Design,Microservices,CAD,AutoCAD,SolidWorks,MATLAB',
  ),
  customer_service: l(
    'Customer Success,Customer Experience,Zendesk,Customer Retention,Onboarding,Technical Support,Troubleshooting,' +
      'Account Management,Conflict Resolution,CSAT',
  ),
  government_and_public_safety: l(
    'Public Policy,Law Enforcement,Emergency Management,Public Administration,Policy Analysis,Community Outreach,' +
      'Grant Writing,Crisis Management,Firefighting,Investigations',
  ),
  marketing_and_advertising: l(
    'Digital Marketing,SEO,SEM,Content Marketing,Social Media Marketing,Google Analytics,HubSpot,Marketing ' +
      'Automation,Brand Management,Email Marketing,Copywriting,Demand Generation,Google Ads,Product Marketing',
  ),
  human_resources: l(
    'Recruiting,Talent Acquisition,Employee Relations,HR Policies,Onboarding,Performance Management,Compensation,' +
      'Benefits Administration,Workday,HRIS,Sourcing,Employer Branding',
  ),
  arts_and_creative: l(
    'Graphic Design,Adobe Photoshop,Adobe Illustrator,Figma,UX Design,UI Design,Typography,Branding,Video Editing,' +
      'Photography,Illustration,After Effects,User Research',
  ),
  construction_and_trades: l(
    'Construction Management,AutoCAD,Blueprint Reading,Estimating,OSHA,Electrical Wiring,Plumbing,Carpentry,HVAC,' +
      'Welding,Project Scheduling,Site Safety',
  ),
  legal: l(
    'Litigation,Contract Negotiation,Corporate Law,Legal Research,Compliance,Regulatory Compliance,Intellectual ' +
      'Property,GDPR,Employment Law,Due Diligence,Legal Writing',
  ),
  supply_chain_and_logistics: l(
    'Supply Chain Management,Logistics,Inventory Management,Warehouse Management,Transportation Management,Demand ' +
      'Planning,SAP,Procurement,Forecasting,Freight',
  ),
  procurement: l(
    'Procurement,Strategic Sourcing,Vendor Management,Contract Management,Negotiation,Spend Analysis,Purchasing,' +
      'Supplier Relationship Management,Category Management,Coupa',
  ),
  writing_and_editorial: l(
    'Writing,Editing,Copywriting,Content Strategy,Journalism,Proofreading,Storytelling,Technical Writing,AP Style,' +
      'Blogging,SEO Writing',
  ),
  research_and_science: l(
    'Research,Data Analysis,Statistics,R,Python,Laboratory Skills,PCR,Cell Culture,Scientific Writing,Experimental ' +
      'Design,Biotechnology,Chemistry',
  ),
  other: l('Volunteering,Event Planning,Fundraising,Social Media,Photography'),
};
