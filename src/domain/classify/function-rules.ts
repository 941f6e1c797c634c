import { compilePhraseTable, rulesFor, type PhraseSpec } from './phrase-table.js';
import type { JobFunction } from './types.js';

/**
 * How strongly a phrase names a function. A domain word (`primary`) beats a generic one
 * (`weak`: operations, project, consultant), which beats a role that implies leadership in
 * general (`fallback`: founder, president, assistant). "IT Project Manager" is IT, "Founder & CTO" is engineering.
 */
export const PRIMARY = 2;
export const WEAK = 1;
export const FALLBACK = 0;

/** `fn: null` claims words that name no function, so a generic word beside them cannot take over. */
export interface FunctionCue {
  fn: JobFunction | null;
  tier: number;
}

// Decisions: CTO and product roles are engineering; data analysts, data scientists, business analysts and
// technical support are IT (the spec's "systems, data, technology support") while a Data Engineer is an
// engineer; solutions engineers sell; payroll is finance; architects are arts_and_creative (design).
const ASSISTANT_OF_A_LEVEL = [
  'vice', 'director', 'manager', 'professor', 'principal', 'general', 'superintendent', 'dean', 'head', 'supervisor', 'controller',
  'treasurer', 'editor', 'coach', 'chief', 'store', 'branch', 'project', 'program', 'department',
];

const TABLE: readonly [JobFunction | null, number, readonly PhraseSpec[]][] = [
  [null, PRIMARY, ['vice president', 'executive chef', 'sous chef', 'chef', 'cook', 'board certified']],
  ['engineering', PRIMARY, [
    'engineer', 'engineers', 'engineering', 'developer', 'developers', 'programmer', 'software', 'firmware', 'hardware', 'devops', 'mlops',
    'sre', 'site reliability', 'frontend', 'backend', 'front end', 'back end', 'fullstack', 'full stack', 'machine learning', 'ml',
    'artificial intelligence', 'computer vision', 'deep learning', 'nlp', 'ios', 'android', 'embedded', 'robotics', 'mechanical',
    'aerospace', 'scrum master', 'agile coach', 'tester', 'sdet', 'drafter', 'draftsman', 'cto', 'chief technology officer',
    'chief technical officer', 'cpo', 'data engineer', 'solutions architect', 'solution architect', 'software architect', 'cloud architect',
    'technical architect', 'ingenieur', 'ingeniero', 'ingeniera', 'desarrollador', 'entwickler', 'developpeur',
  ]],
  ['engineering', WEAK, ['product', 'qa', 'tech', 'web', 'cloud', 'cad', 'civil', 'ai']],
  ['information_technology', PRIMARY, [
    'it', 'information technology', 'information systems', 'information security', 'infosec', 'cybersecurity', 'cyber',
    'network engineer', 'network administrator', 'systems administrator', 'system administrator', 'sysadmin', 'database', 'dba', 'data',
    'data scientist', 'data science', 'analytics', 'business intelligence', 'bi', 'help desk', 'helpdesk', 'service desk',
    'desktop support', 'technical support', 'tech support', 'technical support engineer', 'erp', 'sap', 'security engineer',
    'security analyst', 'security architect', 'cybersecurity engineer', 'it engineer', 'enterprise architect', 'webmaster', 'noc', 'soc', 'penetration tester', 'pentester',
    'secops', 'business analyst', 'cio', 'ciso', 'cdo',
  ]],
  ['information_technology', WEAK, [
    'network', 'security', 'information', 'technology', 'digital', 'infrastructure', 'systems', 'system', 'computer', 'salesforce',
  ]],
  ['customer_service', PRIMARY, [
    'customer', 'customer service', 'customer support', 'customer success', 'customer care', 'customer experience', 'client services',
    'client service', 'client success', 'client support', 'client experience', 'call center', 'call centre', 'contact center',
    'contact centre', 'cashier', 'concierge', 'guest services', 'guest relations', 'member services', 'service advisor',
  ]],
  ['customer_service', WEAK, ['support']],
  ['sales_and_bizdev', PRIMARY, [
    'sales', 'salesperson', 'salesman', 'saleswoman', 'presales', 'business development', 'business developer', 'bizdev', 'biz dev', 'bd',
    'bdr', 'sdr', 'ae', 'account executive', 'account', 'accounts', 'key account', 'partnerships', 'partnership', 'alliances',
    'alliance', 'revenue', 'commercial', 'realtor', 'sales engineer', 'fundraising', 'fundraiser', 'development officer',
    'network marketing', 'seller', 'telesales', 'telemarketer', 'revops', 'cro', 'cco', 'cbo', 'ventas', 'vertrieb', 'ventes',
    'vendedor', 'vendedora', 'partner manager', 'partner management', 'solutions engineer', 'solution engineer',
  ]],
  ['sales_and_bizdev', WEAK, [
    'channel', 'real estate', 'broker', 'agent', 'relationship', 'retail', 'store', 'merchandiser', 'merchandising', 'leasing', 'territory',
  ]],
  ['marketing_and_advertising', PRIMARY, [
    'marketing', 'marketer', 'brand', 'branding', 'growth', 'advertising', 'public relations', 'pr', 'communications', 'communication',
    'comms', 'social media', 'seo', 'sem', 'ppc', 'demand generation', 'demand gen', 'lead generation', 'lead gen', 'campaign',
    'campaigns', 'go to market', 'gtm', 'media buyer', 'media planner', 'influencer', 'brand ambassador', 'promotions', 'sponsorship',
    'sponsorships', 'market research', 'cmo', 'cgo',
  ]],
  ['marketing_and_advertising', WEAK, ['media', 'content', 'events', 'event', 'community', 'ecommerce', 'e commerce', 'ambassador']],
  ['human_resources', PRIMARY, [
    'hr', 'hrbp', 'hris', 'human resources', 'human resource', 'recruiter', 'recruiting', 'recruitment', 'talent acquisition', 'talent',
    'people operations', 'people', 'learning and development', 'ld', 'training', 'trainer', 'compensation', 'benefits', 'total rewards',
    'employee relations', 'employee experience', 'diversity', 'dei', 'inclusion', 'headhunter', 'head hunter', 'sourcer', 'chro',
    'recursos humanos', 'ressources humaines',
  ]],
  ['human_resources', WEAK, ['culture', 'workforce', 'onboarding', 'learning']],
  ['finance_and_accounting', PRIMARY, [
    'finance', 'financial', 'accountant', 'accounting', 'accounts payable', 'accounts receivable', 'bookkeeper', 'bookkeeping',
    'controller', 'comptroller', 'treasurer', 'treasury', 'audit', 'auditor', 'tax', 'cpa', 'cfa', 'cfo', 'investment', 'investments',
    'investor relations', 'banker', 'banking', 'teller', 'underwriter', 'underwriting', 'actuary', 'actuarial', 'loan', 'loans',
    'lending', 'wealth', 'portfolio manager', 'asset management', 'private equity', 'venture capital', 'billing', 'revenue cycle', 'fpa',
    'mergers and acquisitions', 'equity research', 'economist', 'trader', 'trading', 'payroll', 'finops', 'contador', 'contadora', 'comptable', 'buchhalter',
  ]],
  ['finance_and_accounting', WEAK, [
    'bank', 'credit', 'mortgage', 'portfolio', 'fund', 'equity', 'insurance', 'claims', 'risk', 'cost', 'collections', 'quantitative',
    'quant',
  ]],
  ['operations', PRIMARY, [
    'operations', 'operating', 'facilities', 'facility', 'administrative', 'executive assistant', 'administrative assistant',
    'personal assistant', 'virtual assistant', 'receptionist', 'secretary', 'data entry', 'front desk', 'back office', 'pmo',
    'business operations', 'bizops', 'health and safety', 'environmental health and safety', 'ehs', 'hse', 'property manager',
    'building manager', 'custodian', 'janitor', 'housekeeper', 'housekeeping', 'cleaner', 'coo', 'cao',
  ]],
  ['operations', WEAK, [
    'office', 'administration', 'administrator', 'clerk', 'project', 'program', 'project management', 'program management', 'safety',
    'property', 'scheduler',
  ]],
  // "Assistant" names administration only as the head noun, not in "Assistant Vice President".
  ['operations', FALLBACK, [{ phrase: 'assistant', unlessNext: ASSISTANT_OF_A_LEVEL }]],
  ['general_management', PRIMARY, [
    'ceo', 'chief executive', 'cxo', 'cso', 'strategy', 'chief of staff', 'corporate development', 'country manager', 'geschaftsfuhrer',
    'pdg',
  ]],
  ['general_management', WEAK, ['strategic', 'consultant', 'consulting', 'advisor', 'adviser', 'innovation', 'transformation', 'leadership']],
  ['general_management', FALLBACK, [
    'managing director', 'general manager', 'gerente general', 'executive director', 'president', 'chair', 'board', 'trustee', 'founder', 'owner',
    'proprietor', 'partner', 'entrepreneur', 'strategist', 'executive', 'inhaber',
  ]],
  ['education', PRIMARY, [
    'teacher', 'teachers', 'teaching', 'educator', 'professor', 'lecturer', 'tutor', 'instructor', 'faculty', 'school', 'schools', 'dean',
    'academic', 'curriculum', 'kindergarten', 'preschool', 'early childhood', 'librarian', 'education', 'educational', 'registrar',
    'provost', 'chancellor', 'rector', 'guidance', 'school counselor', 'paraprofessional', 'headmaster', 'headmistress', 'profesor', 'profesora', 'professeur', 'lehrer',
    'lehrerin', 'docente', 'enseignant',
  ]],
  ['education', WEAK, ['university', 'college', 'admissions', 'coach']],
  ['healthcare_and_social_services', PRIMARY, [
    'nurse', 'nurses', 'nursing', 'rn', 'lpn', 'lvn', 'cna', 'physician', 'doctor', 'surgeon', 'surgery', 'surgical', 'dentist', 'dental',
    'orthodontist', 'pharmacist', 'pharmacy', 'therapist', 'therapy', 'physiotherapist', 'clinical', 'clinician', 'clinic', 'medical',
    'medicine', 'healthcare', 'health care', 'hospital', 'hospitalist', 'patient', 'caregiver', 'home health', 'social worker',
    'social work', 'social services', 'case manager', 'case management', 'caseworker', 'counselor', 'counsellor', 'psychologist',
    'psychiatrist', 'psychiatric', 'psychotherapist', 'mental health', 'behavioral health', 'paramedic', 'emt', 'veterinarian',
    'veterinary', 'optometrist', 'optician', 'radiologist', 'radiology', 'radiographer', 'sonographer', 'phlebotomist', 'dietitian',
    'dietician', 'nutritionist', 'midwife', 'chiropractor', 'hygienist', 'anesthesiologist', 'anesthetist', 'cardiologist',
    'pediatrician', 'oncologist', 'epidemiologist', 'personal trainer', 'athletic trainer', 'community health', 'public health',
    'doula', 'cno', 'enfermera', 'enfermero', 'infirmier', 'infirmiere', 'krankenschwester', 'medico',
  ]],
  ['healthcare_and_social_services', WEAK, ['health', 'care', 'aide', 'pharmaceutical', 'pharma']],
  ['manufacturing_and_production', PRIMARY, [
    'manufacturing', 'production', 'plant', 'factory', 'assembly', 'assembler', 'machinist', 'machine operator', 'fabrication',
    'fabricator', 'quality control', 'cnc', 'production planner',
  ]],
  ['manufacturing_and_production', FALLBACK, ['operator']],
  ['manufacturing_and_production', WEAK, [
    'quality', 'quality assurance', 'lean', 'six sigma', 'continuous improvement', 'packaging', 'packer',
  ]],
  ['construction_and_trades', PRIMARY, [
    'construction', 'electrician', 'plumber', 'plumbing', 'carpenter', 'carpentry', 'welder', 'welding', 'mason', 'masonry', 'hvac',
    'roofer', 'roofing', 'laborer', 'labourer', 'foreman', 'general contractor', 'mechanic', 'installer', 'estimator', 'surveyor',
    'handyman', 'pipefitter', 'millwright', 'lineman', 'lineworker', 'ironworker', 'heavy equipment', 'tradesman', 'tradesperson',
    'glazier', 'drywall', 'joiner', 'locksmith', 'tiler', 'flooring',
  ]],
  ['construction_and_trades', WEAK, [
    'maintenance', 'installation', 'electrical', 'superintendent', 'building', 'crane', 'concrete', 'renovation',
  ]],
  ['legal', PRIMARY, [
    'legal', 'lawyer', 'attorney', 'counsel', 'paralegal', 'solicitor', 'barrister', 'litigation', 'litigator',
    'compliance', 'regulatory', 'law', 'law clerk', 'notary', 'judge', 'court reporter', 'intellectual property', 'patent', 'trademark',
    'company secretary', 'corporate secretary', 'esq', 'clo', 'abogado', 'abogada', 'avocat', 'anwalt', 'rechtsanwalt',
  ]],
  ['legal', WEAK, ['court', 'contracts', 'privacy']],
  ['supply_chain_and_logistics', PRIMARY, [
    'supply chain', 'logistics', 'logistic', 'warehouse', 'warehousing', 'shipping', 'inventory', 'transportation', 'transport',
    'freight', 'fleet', 'dispatcher', 'dispatch', 'driver', 'trucker', 'courier', 'forklift', 'material handler', 'demand planner',
    'demand planning', 'customs broker', 'picker', 'pilot', 'flight attendant', 'chauffeur',
  ]],
  ['supply_chain_and_logistics', WEAK, ['receiving', 'distribution', 'materials', 'import', 'export', 'rail', 'dock']],
  ['procurement', PRIMARY, [
    'procurement', 'purchasing', 'purchaser', 'buyer', 'sourcing', 'category manager', 'vendor management', 'supplier', 'expediter',
    'expeditor', 'compras', 'einkauf', 'achats',
  ]],
  ['procurement', WEAK, ['vendor', 'category', 'commodity']],
  ['writing_and_editorial', PRIMARY, [
    'writer', 'writing', 'copywriter', 'copywriting', 'editor', 'editorial', 'editing', 'journalist', 'journalism', 'reporter', 'author',
    'columnist', 'correspondent', 'proofreader', 'publishing', 'publisher', 'translator', 'translation', 'interpreter', 'blogger', 'poet',
    'novelist', 'screenwriter', 'ghostwriter', 'speechwriter',
  ]],
  ['writing_and_editorial', WEAK, ['publication', 'publications', 'news', 'documentation']],
  ['arts_and_creative', PRIMARY, [
    'designer', 'design', 'artist', 'art', 'arts', 'creative', 'illustrator', 'animator', 'animation', 'photographer', 'photography',
    'videographer', 'film', 'filmmaker', 'musician', 'music', 'singer', 'actor', 'actress', 'dancer', 'choreographer', 'ux', 'ui',
    'user experience', 'user interface', 'fashion', 'stylist', 'curator', 'museum', 'gallery', 'theatre', 'theater', 'video editor',
    'film editor', 'photo editor', 'sound engineer', 'audio engineer', 'production assistant', 'landscape architect',
  ]],
  ['arts_and_creative', WEAK, ['video', 'producer', 'visual', 'architect', 'architecture']],
  ['research_and_science', PRIMARY, [
    'research', 'researcher', 'scientist', 'science', 'scientific', 'research and development', 'rd', 'r and d', 'laboratory', 'lab',
    'chemist', 'chemistry', 'biologist', 'biology', 'physicist', 'physics', 'postdoc', 'postdoctoral', 'microbiologist', 'biochemist',
    'geologist', 'geophysicist', 'statistician', 'principal investigator', 'bioinformatics', 'ecologist', 'agronomist', 'pharmacologist',
    'toxicologist',
  ]],
  ['research_and_science', WEAK, ['genomics', 'genetics']],
  ['government_and_public_safety', PRIMARY, [
    'government', 'governmental', 'police', 'policing', 'law enforcement', 'sheriff', 'trooper', 'detective', 'firefighter',
    'fire fighter', 'fire department', 'fire chief', 'fire captain', 'fire marshal', 'military', 'army', 'navy', 'air force',
    'marine corps', 'marines', 'soldier', 'sergeant', 'lieutenant', 'colonel', 'armed forces', 'national guard', 'coast guard',
    'public administration', 'public sector', 'public safety', 'public service', 'public servant', 'civil servant', 'civil service',
    'municipal', 'municipality', 'city manager', 'mayor', 'councilmember', 'councilman', 'councilwoman', 'councillor', 'city council',
    'council member', 'senator', 'congressman', 'congresswoman', 'legislator', 'legislative', 'legislature', 'parliament',
    'parliamentary', 'diplomat', 'diplomatic', 'foreign service', 'correctional', 'corrections', 'probation', 'parole', 'security guard',
    'security officer', 'emergency management', 'emergency dispatcher', '911', 'border patrol', 'air traffic controller', 'public policy',
    'postal', 'postmaster', 'special agent', 'inspector general', 'building inspector', 'health inspector', 'code enforcement',
    'commissioner', 'policia', 'policier',
  ]],
  ['government_and_public_safety', WEAK, ['federal', 'county', 'city', 'emergency', 'customs', 'policy', 'guard', 'intelligence', 'captain']],
];

export const matchFunction = compilePhraseTable(TABLE.flatMap(([fn, tier, phrases]) => rulesFor<FunctionCue>({ fn, tier }, phrases)));
