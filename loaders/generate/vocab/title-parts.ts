/**
 * Title building blocks per job function (the catalog's 21 JobFunction slugs): `areas` name a department
 * ("VP of {area}"), `ics` name individual-contributor roles ("Senior {ic}"), `chiefs` the C-level titles,
 * and `fixed` titles that do not follow a pattern, with the seniority they intend.
 */
export type Level =
  | 'c_level'
  | 'vp'
  | 'director'
  | 'manager'
  | 'senior_ic'
  | 'ic'
  | 'entry'
  | 'founder_or_partner'
  | 'unknown';

export interface FunctionParts {
  /** Share of the workforce in this function. */
  share: number;
  areas: readonly string[];
  ics: readonly string[];
  chiefs: readonly string[];
  fixed?: ReadonlyArray<readonly [string, Level]>;
}

const list = (s: string): string[] => s.split(',').map((x) => x.trim());

export const FUNCTION_PARTS: Readonly<Record<string, FunctionParts>> = {
  operations: {
    share: 8,
    areas: list(
      'Operations,Business Operations,Facilities,Administration,Revenue Operations,Sales Operations,Program ' +
        'Management,Office Operations',
    ),
    ics: list(
      'Operations Analyst,Operations Specialist,Executive Assistant,Administrative Assistant,Project Manager,Office ' +
        'Administrator,Program Coordinator,Receptionist,Operations Associate,Facilities Coordinator',
    ),
    chiefs: list('Chief Operating Officer,COO,Chief Administrative Officer'),
    fixed: [
      ['Office Manager', 'manager'],
      ['Operations Manager', 'manager'],
      ['Facilities Manager', 'manager'],
    ],
  },
  general_management: {
    share: 4,
    areas: list('Strategy,Corporate Development,Business Strategy,Transformation,Product,Product Management'),
    ics: list(
      'Consultant,Management Consultant,Strategy Analyst,Business Analyst,Product Manager,Strategy Consultant,' +
        'Associate Consultant,Product Owner',
    ),
    chiefs: list(
      'Chief Executive Officer,CEO,President,President & CEO,President and CEO,Managing Director,Chief Strategy ' +
        'Officer,Executive Director,Chief Product Officer',
    ),
    fixed: [
      ['General Manager', 'director'],
      ['Chief of Staff', 'director'],
      ['Country Manager', 'director'],
      ['Branch Manager', 'manager'],
    ],
  },
  sales_and_bizdev: {
    share: 13,
    areas: list(
      'Sales,Business Development,Partnerships,Enterprise Sales,Channel Sales,Inside Sales,Account Management,' +
        'Strategic Alliances,Key Accounts,Global Sales,Sales Development',
    ),
    ics: list(
      'Account Executive,Sales Representative,Sales Development Representative,Business Development Representative,' +
        'Account Manager,Sales Engineer,Sales Consultant,Key Account Manager,Territory Sales Representative,Sales ' +
        'Associate,Partnerships Manager,Business Development Manager,Enterprise Account Executive,Mid-Market Account ' +
        'Executive,Inside Sales Representative,Solutions Consultant',
    ),
    chiefs: list('Chief Revenue Officer,CRO,Chief Sales Officer,Chief Business Officer,Chief Commercial Officer'),
    fixed: [
      ['Regional Sales Manager', 'manager'],
      ['Area Sales Manager', 'manager'],
      ['Sales Manager', 'manager'],
      ['SDR', 'entry'],
      ['BDR', 'entry'],
      ['AE', 'ic'],
    ],
  },
  information_technology: {
    share: 8,
    areas: list(
      'IT,Information Technology,IT Infrastructure,Information Security,Data,Business Intelligence,Systems,' +
        'Cybersecurity,Enterprise Applications,Data & Analytics',
    ),
    ics: list(
      'Systems Administrator,IT Support Specialist,Network Engineer,Database Administrator,Data Analyst,Security ' +
        'Analyst,IT Technician,Help Desk Technician,Solutions Architect,Cloud Architect,Business Intelligence Analyst,' +
        'IT Analyst,Systems Analyst,Network Administrator,Salesforce Administrator',
    ),
    chiefs: list(
      'Chief Information Officer,CIO,Chief Information Security Officer,CISO,Chief Data Officer,Chief Digital Officer',
    ),
    fixed: [
      ['IT Manager', 'manager'],
      ['IT Director', 'director'],
    ],
  },
  education: {
    share: 6,
    areas: list('Curriculum,Admissions,Academic Affairs,Student Services,Education,Enrollment'),
    ics: list(
      'Teacher,High School Teacher,Elementary School Teacher,Lecturer,Professor,Assistant Professor,Associate ' +
        'Professor,Instructor,Tutor,School Counselor,Librarian,Special Education Teacher,Math Teacher,English Teacher',
    ),
    chiefs: list('Superintendent,Provost,Chancellor'),
    fixed: [
      ['Dean', 'director'],
      ['School Principal', 'director'],
      ['Head of School', 'director'],
      ['Vice Principal', 'manager'],
      ['Department Chair', 'manager'],
      ['Teaching Assistant', 'entry'],
      ['Substitute Teacher', 'entry'],
    ],
  },
  healthcare_and_social_services: {
    share: 7,
    areas: list(
      'Nursing,Clinical Operations,Patient Care,Social Services,Behavioral Health,Pharmacy,Patient Experience',
    ),
    ics: list(
      'Registered Nurse,Nurse Practitioner,Physician,Pharmacist,Physical Therapist,Medical Assistant,Social Worker,' +
        'Case Manager,Licensed Practical Nurse,Dental Hygienist,Occupational Therapist,Caregiver,Paramedic,' +
        'Psychologist,Counselor,Dentist,Physician Assistant,Radiologic Technologist',
    ),
    chiefs: list('Chief Medical Officer,Chief Nursing Officer,Chief Clinical Officer'),
    fixed: [
      ['Charge Nurse', 'manager'],
      ['Nurse Manager', 'manager'],
      ['Director of Nursing', 'director'],
      ['Attending Physician', 'senior_ic'],
      ['Resident Physician', 'entry'],
      ['Nursing Assistant', 'entry'],
      ['Surgeon', 'senior_ic'],
      ['RN', 'ic'],
    ],
  },
  finance_and_accounting: {
    share: 6,
    areas: list(
      'Finance,Accounting,FP&A,Treasury,Tax,Audit,Payroll,Financial Planning,Internal Audit,Investor Relations',
    ),
    ics: list(
      'Accountant,Financial Analyst,Staff Accountant,Auditor,Tax Accountant,Bookkeeper,Accounts Payable Specialist,' +
        'Accounts Receivable Specialist,Payroll Specialist,Credit Analyst,Investment Analyst,Treasury Analyst,Actuary,' +
        'Tax Advisor,Financial Advisor',
    ),
    chiefs: list('Chief Financial Officer,CFO,Chief Accounting Officer,Chief Investment Officer'),
    fixed: [
      ['Controller', 'director'],
      ['Financial Controller', 'manager'],
      ['Certified Public Accountant', 'senior_ic'],
      ['Treasurer', 'director'],
      ['Finance Manager', 'manager'],
    ],
  },
  manufacturing_and_production: {
    share: 4,
    areas: list('Manufacturing,Production,Plant Operations,Quality,Maintenance,Operational Excellence'),
    ics: list(
      'Machine Operator,Production Worker,Assembler,Quality Inspector,Maintenance Technician,Production Planner,CNC ' +
        'Machinist,Manufacturing Technician,Process Technician,Quality Technician,Line Operator',
    ),
    chiefs: list('Chief Manufacturing Officer,Chief Quality Officer'),
    fixed: [
      ['Plant Manager', 'manager'],
      ['Production Supervisor', 'manager'],
      ['Shift Supervisor', 'manager'],
      ['Production Manager', 'manager'],
      ['Quality Manager', 'manager'],
    ],
  },
  engineering: {
    share: 12,
    areas: list(
      'Engineering,Software Engineering,Platform Engineering,Infrastructure,Hardware Engineering,Quality Assurance,' +
        'Mechanical Engineering,Electrical Engineering,DevOps,Site Reliability,Product Engineering,Mobile Engineering,' +
        'Machine Learning',
    ),
    ics: list(
      'Software Engineer,Software Developer,Backend Engineer,Frontend Developer,Full Stack Developer,Mobile ' +
        'Developer,DevOps Engineer,Site Reliability Engineer,QA Engineer,Test Engineer,Mechanical Engineer,Electrical ' +
        'Engineer,Civil Engineer,Hardware Engineer,Embedded Software Engineer,Machine Learning Engineer,Data Engineer,' +
        'Firmware Engineer,Process Engineer,Chemical Engineer,iOS Developer,Android Developer,Web Developer',
    ),
    chiefs: list('Chief Technology Officer,CTO,Chief Engineering Officer,Chief Architect'),
    fixed: [
      ['Engineering Manager', 'manager'],
      ['Tech Lead', 'manager'],
      ['Software Architect', 'senior_ic'],
      ['Staff Software Engineer', 'senior_ic'],
      ['Principal Engineer', 'senior_ic'],
      ['SWE', 'ic'],
      ['Software Engineer II', 'ic'],
      ['Software Engineer III', 'senior_ic'],
    ],
  },
  customer_service: {
    share: 5,
    areas: list(
      'Customer Success,Customer Support,Customer Experience,Client Services,Technical Support,Customer Care',
    ),
    ics: list(
      'Customer Success Manager,Customer Service Representative,Support Specialist,Technical Support Engineer,' +
        'Customer Support Agent,Client Services Associate,Call Center Agent,Customer Experience Specialist,Customer ' +
        'Care Associate,Implementation Specialist',
    ),
    chiefs: list('Chief Customer Officer,Chief Experience Officer'),
    fixed: [
      ['Support Team Lead', 'manager'],
      ['Customer Service Manager', 'manager'],
    ],
  },
  government_and_public_safety: {
    share: 2,
    areas: list('Public Safety,Public Works,Policy,Emergency Management,Public Affairs,Code Enforcement'),
    ics: list(
      'Police Officer,Firefighter,Policy Analyst,Detective,Corrections Officer,Emergency Dispatcher,Legislative ' +
        'Aide,City Planner,Civil Servant,Program Analyst,Soldier,Customs Officer',
    ),
    chiefs: list('Mayor,City Administrator'),
    fixed: [
      ['Police Chief', 'director'],
      ['Fire Chief', 'director'],
      ['Police Sergeant', 'manager'],
      ['Fire Captain', 'manager'],
      ['City Manager', 'director'],
      ['Commissioner', 'director'],
      ['Police Lieutenant', 'manager'],
      ['Deputy Sheriff', 'ic'],
    ],
  },
  marketing_and_advertising: {
    share: 7,
    areas: list(
      'Marketing,Growth,Brand,Demand Generation,Product Marketing,Content Marketing,Digital Marketing,' +
        'Communications,Public Relations,Performance Marketing,Field Marketing,Marketing Operations,Social Media,SEO,' +
        'Advertising,Partner Marketing,Lifecycle Marketing',
    ),
    ics: list(
      'Marketing Specialist,Content Marketer,Digital Marketing Specialist,SEO Specialist,Growth Marketer,Product ' +
        'Marketing Manager,Brand Strategist,Media Buyer,Marketing Analyst,PR Specialist,Communications Specialist,' +
        'Demand Generation Specialist,Email Marketing Specialist,Social Media Manager,Marketing Manager',
    ),
    chiefs: list('Chief Marketing Officer,CMO,Chief Growth Officer,Chief Brand Officer,Chief Communications Officer'),
    fixed: [
      ['Marketing Coordinator', 'entry'],
      ['Growth Hacker', 'ic'],
    ],
  },
  human_resources: {
    share: 4,
    areas: list(
      'Human Resources,HR,People,People Operations,Talent Acquisition,Recruiting,Learning & Development,Total ' +
        'Rewards,Compensation & Benefits,Employee Experience,Talent',
    ),
    ics: list(
      'Recruiter,Technical Recruiter,HR Generalist,HR Business Partner,Talent Acquisition Specialist,Sourcer,' +
        'Compensation Analyst,Training Specialist,People Partner,Benefits Specialist,Talent Acquisition Partner',
    ),
    chiefs: list('Chief Human Resources Officer,CHRO,Chief People Officer,Chief Talent Officer'),
    fixed: [
      ['HR Coordinator', 'entry'],
      ['HR Assistant', 'entry'],
      ['HR Manager', 'manager'],
      ['Recruiting Coordinator', 'entry'],
    ],
  },
  arts_and_creative: {
    share: 3,
    areas: list('Design,Creative,UX,Product Design,Brand Design,Video Production,User Research'),
    ics: list(
      'Graphic Designer,UX Designer,Product Designer,UI Designer,Illustrator,Photographer,Video Editor,Motion ' +
        'Designer,Animator,Interior Designer,Fashion Designer,Visual Designer,UX Researcher,3D Artist,Musician',
    ),
    chiefs: list('Chief Creative Officer,Chief Design Officer'),
    fixed: [
      ['Creative Director', 'director'],
      ['Art Director', 'director'],
      ['Design Lead', 'manager'],
      ['Design Intern', 'entry'],
    ],
  },
  construction_and_trades: {
    share: 2.5,
    areas: list('Construction,Field Operations,Facilities Maintenance,Site Operations,Estimating,Preconstruction'),
    ics: list(
      'Electrician,Plumber,Carpenter,HVAC Technician,Welder,Construction Worker,Estimator,Project Engineer,Heavy ' +
        'Equipment Operator,Mason,Painter,Roofer,Pipefitter,Surveyor',
    ),
    chiefs: list('Chief Construction Officer'),
    fixed: [
      ['Construction Manager', 'manager'],
      ['Foreman', 'manager'],
      ['Site Superintendent', 'manager'],
      ['Master Electrician', 'senior_ic'],
      ['Apprentice Electrician', 'entry'],
      ['Apprentice Carpenter', 'entry'],
      ['Journeyman Plumber', 'senior_ic'],
      ['Site Supervisor', 'manager'],
    ],
  },
  legal: {
    share: 2.5,
    areas: list('Legal,Compliance,Regulatory Affairs,Contracts,Privacy,Risk & Compliance,Intellectual Property'),
    ics: list(
      'Attorney,Lawyer,Associate Attorney,Paralegal,Legal Counsel,Corporate Counsel,Compliance Analyst,Contract ' +
        'Manager,Legal Assistant,Solicitor,Compliance Officer,Privacy Analyst,Patent Agent,Barrister',
    ),
    chiefs: list('General Counsel,Chief Legal Officer,Chief Compliance Officer,Chief Privacy Officer'),
    fixed: [
      ['Partner', 'founder_or_partner'],
      ['Equity Partner', 'founder_or_partner'],
      ['Senior Counsel', 'senior_ic'],
      ['Associate General Counsel', 'director'],
      ['Deputy General Counsel', 'vp'],
      ['Of Counsel', 'senior_ic'],
    ],
  },
  supply_chain_and_logistics: {
    share: 3,
    areas: list(
      'Supply Chain,Logistics,Warehouse Operations,Distribution,Fleet,Transportation,Inventory,Fulfillment,Demand ' +
        'Planning',
    ),
    ics: list(
      'Logistics Coordinator,Supply Chain Analyst,Warehouse Associate,Forklift Operator,Truck Driver,Dispatcher,' +
        'Inventory Specialist,Shipping Clerk,Demand Planner,Delivery Driver,Import/Export Specialist,Logistics Analyst',
    ),
    chiefs: list('Chief Supply Chain Officer,Chief Logistics Officer'),
    fixed: [
      ['Warehouse Manager', 'manager'],
      ['Fleet Manager', 'manager'],
      ['Warehouse Supervisor', 'manager'],
      ['Logistics Manager', 'manager'],
    ],
  },
  procurement: {
    share: 1,
    areas: list('Procurement,Purchasing,Sourcing,Strategic Sourcing,Vendor Management'),
    ics: list(
      'Buyer,Purchasing Agent,Procurement Specialist,Sourcing Specialist,Category Manager,Procurement Analyst,' +
        'Purchasing Coordinator,Vendor Manager',
    ),
    chiefs: list('Chief Procurement Officer'),
    fixed: [
      ['Senior Buyer', 'senior_ic'],
      ['Purchasing Manager', 'manager'],
    ],
  },
  writing_and_editorial: {
    share: 1.5,
    areas: list('Editorial,Content,Publishing,Documentation'),
    ics: list(
      'Writer,Copywriter,Editor,Technical Writer,Journalist,Reporter,Content Writer,Content Strategist,Proofreader,' +
        'Columnist,Copy Editor,Grant Writer,Translator',
    ),
    chiefs: list('Editor-in-Chief,Chief Content Officer'),
    fixed: [
      ['Managing Editor', 'manager'],
      ['Editorial Director', 'director'],
      ['Senior Editor', 'senior_ic'],
      ['Staff Writer', 'ic'],
      ['Editorial Assistant', 'entry'],
    ],
  },
  research_and_science: {
    share: 2.5,
    areas: list(
      'Research,R&D,Research & Development,Clinical Research,Laboratory Operations,Data Science,Applied Science,' +
        'Innovation',
    ),
    ics: list(
      'Research Scientist,Scientist,Research Associate,Lab Technician,Chemist,Biologist,Research Assistant,' +
        'Postdoctoral Researcher,Clinical Research Coordinator,Data Scientist,Statistician,Microbiologist,Physicist,' +
        'Economist,Epidemiologist',
    ),
    chiefs: list('Chief Scientific Officer,Chief Science Officer,Chief Research Officer,Chief Innovation Officer'),
    fixed: [
      ['Principal Investigator', 'senior_ic'],
      ['Lab Manager', 'manager'],
    ],
  },
  other: {
    share: 1,
    areas: [],
    ics: [],
    chiefs: [],
    fixed: [
      ['Team Member', 'unknown'],
      ['Volunteer', 'unknown'],
      ['Member', 'unknown'],
      ['Student', 'entry'],
      ['Freelancer', 'unknown'],
      ['Self-Employed', 'unknown'],
      ['Crew Member', 'unknown'],
      ['Associate', 'unknown'],
      ['Staff', 'unknown'],
      ['Ambassador', 'unknown'],
      ['Intern', 'entry'],
      ['Trainee', 'entry'],
    ],
  },
};

/** Founder, owner and partner titles, each with the function it names. */
export const FOUNDER_TITLES: ReadonlyArray<readonly [string, string]> = [
  ['Founder', 'general_management'],
  ['Co-Founder', 'general_management'],
  ['Founder & CEO', 'general_management'],
  ['Co-Founder & CEO', 'general_management'],
  ['Founder and CEO', 'general_management'],
  ['Co-founder, CTO', 'engineering'],
  ['Co-Founder & CTO', 'engineering'],
  ['Co-Founder & COO', 'operations'],
  ['Co-Founder and Chief Product Officer', 'general_management'],
  ['Owner', 'general_management'],
  ['Business Owner', 'general_management'],
  ['Owner & Founder', 'general_management'],
  ['Co-Owner', 'general_management'],
  ['Owner/Operator', 'operations'],
  ['Managing Partner', 'general_management'],
  ['Founding Partner', 'general_management'],
  ['Founder, President', 'general_management'],
  ['Founder & Managing Director', 'general_management'],
  ['Founder & Creative Director', 'arts_and_creative'],
  ['Partner', 'general_management'],
];

/** Titles of a second current role held beside the main job. */
export const SIDE_TITLES: readonly string[] = list(
  'Advisor,Board Member,Investor,Mentor,Co-Founder,Consultant,Owner,Volunteer,Board Advisor,Non-Executive Director,' +
    'Angel Investor,Member Board of Directors,Fractional CFO,Adjunct Professor,Startup Advisor,Independent Consultant,' +
    'Founder,Trustee',
);

/** Territories of sales, marketing and operations leaders. */
export const REGION_QUALIFIERS: readonly string[] = list(
  'EMEA,North America,APAC,LATAM,Americas,DACH,UK & Ireland,Nordics,West,East,Central,Global',
);
