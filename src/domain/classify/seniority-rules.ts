import { compilePhraseTable, rulesFor, type PhraseSpec } from './phrase-table.js';
import type { Seniority } from './types.js';

/**
 * What a phrase says about level. Ranked levels compete (highest wins); `founder` and
 * `owner_or_partner` name an ownership role; `status` ("Self-employed", "Retired") says the
 * level is not stated; `role` is a plain job noun ("Specialist") that makes a title an entry role.
 */
export type RankedLevel = Exclude<Seniority, 'founder_or_partner' | 'unknown'>;
export type SeniorityCue = RankedLevel | 'founder' | 'owner_or_partner' | 'status' | 'role';

const C_SUITE_ABBREVIATIONS = [
  'ceo', 'cto', 'cfo', 'coo', 'cmo', 'cro', 'cio', 'ciso', 'cso', 'cpo', 'chro', 'cdo', 'cco', 'clo', 'cao', 'cno', 'cbo', 'cgo', 'cxo', 'cmio',
];

// "Partner" is an ownership role only as the head noun: not "HR Business Partner", not "Partner Manager".
const PARTNER_NOT_AFTER = [
  'business', 'channel', 'hr', 'strategic', 'alliance', 'alliances', 'technology', 'tech', 'talent', 'people', 'learning', 'implementation',
  'integration', 'integrations', 'solution', 'solutions', 'delivery', 'referral', 'reseller', 'commercial', 'community', 'care', 'knowledge',
  'training', 'finance', 'it', 'strategy', 'digital', 'growth', 'recruiting', 'recruitment', 'sales', 'marketing', 'brand', 'trusted',
  'payroll', 'ecosystem', 'agency', 'creative', 'product', 'thought', 'thinking', 'development', 'cloud', 'data',
];
const PARTNER_NOT_BEFORE = [
  'manager', 'management', 'managers', 'success', 'marketing', 'account', 'accounts', 'sales', 'development', 'relations', 'relationship',
  'relationships', 'program', 'programs', 'engineer', 'engineering', 'operations', 'solutions', 'specialist', 'coordinator', 'executive',
  'enablement', 'integrations', 'integration', 'ecosystem', 'ecosystems', 'network', 'channel', 'alliances', 'support', 'onboarding',
  'experience', 'strategy', 'partnerships', 'associate', 'analyst', 'services', 'acquisition', 'recruiting', 'technology', 'lead', 'director',
  'growth', 'portal', 'training',
];
// "Product Owner" and "Process Owner" own a backlog, not a business.
const OWNER_NOT_AFTER = [
  'product', 'process', 'service', 'services', 'system', 'systems', 'data', 'risk', 'control', 'controls', 'application', 'platform',
  'content', 'technical', 'feature', 'solution', 'account', 'budget', 'project', 'program', 'capability', 'asset', 'policy', 'release',
  'domain',
];

// "Staff" marks a senior engineer or scientist; a "Staff Accountant" or "Staff Nurse" is an entry role.
const STAFF_IC_WORDS = [
  'engineer', 'software', 'data', 'scientist', 'research', 'designer', 'product', 'machine', 'ml', 'ai', 'backend', 'frontend', 'front',
  'back', 'full', 'fullstack', 'security', 'site', 'developer', 'firmware', 'hardware', 'mechanical', 'electrical', 'systems', 'applied',
  'ux', 'platform', 'infrastructure', 'cloud', 'devops', 'sre', 'technical', 'analyst', 'architect', 'embedded', 'mobile', 'ios', 'android',
];

const TABLE: readonly [SeniorityCue, readonly PhraseSpec[]][] = [
  ['c_level', [
    ...C_SUITE_ABBREVIATIONS, 'chief * officer', 'chief executive', 'c level', 'c suite', 'president', 'presidente', 'chair', 'vice chair',
    'managing director', 'executive director', 'non executive director', 'ned', 'board member', 'member of the board', 'board of directors',
    'board of trustees', 'board of governors', 'board director', 'trustee', 'general counsel', 'chancellor', 'vice chancellor', 'rector',
    'mayor', 'geschaftsfuhrer', 'pdg',
  ]],
  ['vp', ['vp', 'svp', 'evp', 'avp', 'vice president', 'v p', 'vice provost']],
  ['director', [
    'director', 'directeur', 'directrice', 'directora', 'direktor', 'head of', 'dean', 'general manager', 'gerente general', 'treasurer', 'chief',
    'chief of staff', 'associate general counsel', 'assistant general counsel', 'deputy general counsel', 'school principal',
    'assistant principal', 'vice principal', 'deputy principal', 'high school principal', 'department chair', 'committee chair',
    'program chair', 'division chair', 'section chair', 'head teacher', 'headmaster', 'headmistress',
  ]],
  ['manager', [
    'manager', 'managers', 'managing', 'supervisor', 'supervising', 'foreman', 'forewoman', 'superintendent', 'team lead', 'team leader',
    'shift lead', 'shift leader', 'group leader', 'crew leader', 'crew chief', 'leader', { phrase: 'head', unlessNext: ['hunter'] },
    { phrase: 'controller', unlessPrev: ['traffic', 'game'] }, 'comptroller', 'executive chef', 'gerente', 'responsable', 'jefe', 'leiter',
  ]],
  ['senior_ic', [
    { phrase: 'senior', unlessNext: ['living', 'citizen', 'citizens', 'housing', 'care'] },
    { phrase: 'lead', unlessNext: ['generation', 'gen', 'generator'] },
    'principal', ...STAFF_IC_WORDS.map((w) => `staff ${w}`), 'expert', 'distinguished', 'architect', 'professor', 'physician', 'surgeon',
    'iii', 'iv', 'master electrician', 'master plumber', 'master carpenter', 'master technician', 'master mechanic',
    'entrepreneur in residence', 'advisory board', 'board advisor', 'board observer',
  ]],
  ['entry', [
    'intern', 'interns', 'internship', 'trainee', 'apprentice', 'apprenticeship', 'junior', 'graduate', 'student', 'working student',
    'werkstudent', 'praktikant', 'praktikantin', 'stagiaire', 'becario', 'becaria', 'pasante', 'fresher', 'entry level', 'assistant',
    'associate', 'cadet',
  ]],
  ['founder', [
    { phrase: 'founder', unlessNext: ['office', 'associate', 'associates', 'relations', 'in'] }, 'founding partner', 'founding director',
    'founding ceo', 'fondateur', 'fondatrice', 'fundador', 'fundadora', 'grunder', 'grunderin',
  ]],
  ['owner_or_partner', [
    { phrase: 'owner', unlessPrev: OWNER_NOT_AFTER }, 'proprietor', 'inhaber', 'propietario', 'proprietaire', 'entrepreneur',
    { phrase: 'partner', unlessPrev: PARTNER_NOT_AFTER, unlessNext: PARTNER_NOT_BEFORE },
  ]],
  ['status', [
    'self employed', 'freelance', 'freelancer', 'independent', 'retired', 'unemployed', 'between jobs', 'looking for', 'open to', 'seeking',
    'career break', 'sabbatical', 'homemaker',
    { phrase: 'volunteer', unlessNext: ['coordinator', 'engagement', 'services', 'program', 'programs', 'recruitment'] },
  ]],
  ['role', [
    'specialist', 'coordinator', 'analyst', 'representative', 'officer', 'clerk', 'worker', 'agent', 'technician', 'operator', 'staff',
    'member', 'employee', 'executive', 'administrator', 'advisor', 'adviser', 'chef', 'cook', 'server', 'waiter', 'waitress', 'bartender',
    'barista', 'host', 'hostess', 'attendant', 'aide', 'helper', 'crew', 'cashier', 'guard', 'handler', 'inspector', 'planner', 'scheduler',
    'estimator', 'processor', 'generalist', 'professional', 'practitioner', 'contributor', 'mitarbeiter', 'empleado', 'colaborador',
  ]],
];

export const matchSeniority = compilePhraseTable(TABLE.flatMap(([cue, phrases]) => rulesFor(cue, phrases)));
