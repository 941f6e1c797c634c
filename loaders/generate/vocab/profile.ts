/** Vocabulary of the rest of a person profile: languages, personas, headline and summary phrases. */
const l = (s: string): string[] => s.split(',').map((x) => x.trim());

/** Second languages people list besides their country's own. */
export const SECOND_LANGUAGES: ReadonlyArray<readonly [string, number]> = [
  ['English', 30],
  ['Spanish', 12],
  ['French', 10],
  ['German', 8],
  ['Mandarin', 4],
  ['Portuguese', 4],
  ['Italian', 3],
  ['Japanese', 2],
  ['Arabic', 3],
  ['Hindi', 3],
  ['Russian', 2],
  ['Dutch', 2],
  ['Korean', 1],
  ['Swedish', 1],
  ['Polish', 1],
  ['Turkish', 1],
];

/** Buyer personas per job function. */
export const PERSONAS_BY_FUNCTION: Readonly<Record<string, readonly string[]>> = {
  sales_and_bizdev: l('Sales Leader,Revenue Leader,Sales Professional'),
  marketing_and_advertising: l('Marketing Leader,Growth Marketer,Marketing Professional'),
  engineering: l('Engineering Leader,Developer,Technical Buyer'),
  information_technology: l('IT Decision Maker,Security Leader,Data Leader,Technical Buyer'),
  finance_and_accounting: l('Finance Leader,Economic Buyer,Finance Professional'),
  human_resources: l('HR Leader,Recruiting Leader,People Professional'),
  operations: l('Operations Leader,Operations Professional'),
  general_management: l('Executive,Economic Buyer,Decision Maker'),
  customer_service: l('Customer Success Leader,Support Professional'),
  legal: l('Legal Leader,Compliance Professional'),
  procurement: l('Procurement Leader,Economic Buyer'),
  supply_chain_and_logistics: l('Supply Chain Leader,Logistics Professional'),
};
export const LEADER_PERSONAS = l('Decision Maker,Executive,Budget Holder');
export const GENERIC_PERSONAS = l('End User,Influencer,Champion,Individual Contributor');

export const SUMMARY_OPENERS = l(
  'Passionate about,Experienced professional focused on,Results-driven leader in,Curious builder working on,' +
    'Dedicated to,Specialized in,Helping teams with,Over a decade of experience in',
);
export const SUMMARY_CLOSERS = l(
  "Always happy to connect.,Open to new opportunities.,Let's talk.,Views are my own.,Based in {city}.,Speaker and " +
    'mentor.,Lifelong learner.',
);
export const HEADLINE_SEPARATORS: readonly string[] = [' at ', ' @ ', ' | ', ' - '];

export const JOB_DESCRIPTION_VERBS = l('Leading,Managing,Building,Owning,Driving,Supporting,Scaling,Running');
export const JOB_DESCRIPTION_OBJECTS = l(
  'a team of {n},the {area} roadmap,key accounts across {region},our global {area} program,day-to-day {area} ' +
    'operations,strategic initiatives,the {area} budget,partnerships with enterprise customers',
);
