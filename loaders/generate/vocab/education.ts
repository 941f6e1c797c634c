/** Schools (~200, grouped by country), degrees, fields of study and certifications. */
// A comma followed by a space belongs to the name ("University of California, Berkeley").
const l = (s: string): string[] => s.split(/,(?! )/).map((x) => x.trim());

export const SCHOOLS_BY_COUNTRY: Readonly<Record<string, readonly string[]>> = {
  us: l(
    'Harvard University,Stanford University,Massachusetts Institute of Technology,University of California, ' +
      'Berkeley,University of California, Los Angeles,University of Michigan,New York University,Columbia University,' +
      'University of Pennsylvania,Cornell University,University of Texas at Austin,Georgia Institute of Technology,' +
      'University of Washington,University of Southern California,Northwestern University,Duke University,University ' +
      'of Illinois Urbana-Champaign,Carnegie Mellon University,Boston University,Penn State University,Ohio State ' +
      'University,Arizona State University,University of Florida,Texas A&M University,Purdue University,University of ' +
      'Wisconsin-Madison,University of Minnesota,Rutgers University,Indiana University,University of North Carolina ' +
      'at Chapel Hill,University of Virginia,Yale University,Princeton University,Brown University,University of ' +
      'Chicago,Johns Hopkins University,Vanderbilt University,Emory University,Georgetown University,University of ' +
      'Colorado Boulder,University of Arizona,San Jose State University,University of Maryland,Virginia Tech,Michigan ' +
      'State University,University of Georgia,Florida State University,University of Utah,Brigham Young University,' +
      'Northeastern University,DePaul University,Santa Clara University,Babson College,Wharton School,University of ' +
      'Phoenix,Southern New Hampshire University,Miami Dade College,Houston Community College,Baruch College,San ' +
      'Diego State University',
  ),
  gb: l(
    'University of Oxford,University of Cambridge,Imperial College London,London School of Economics,University ' +
      "College London,King's College London,University of Manchester,University of Edinburgh,University of Bristol," +
      'University of Warwick,University of Leeds,University of Birmingham,University of Glasgow,University of ' +
      "Nottingham,University of Sheffield,Durham University,University of Southampton,Cardiff University,Queen's " +
      'University Belfast,Newcastle University',
  ),
  de: l(
    'Technische Universität München,Ludwig-Maximilians-Universität München,Humboldt-Universität zu Berlin,Freie ' +
      'Universität Berlin,RWTH Aachen University,Universität Heidelberg,Karlsruher Institut für Technologie,' +
      'Universität Hamburg,Goethe-Universität Frankfurt,Universität zu Köln,TU Berlin,Universität Stuttgart,WHU – ' +
      'Otto Beisheim School of Management,Universität Mannheim',
  ),
  fr: l(
    'HEC Paris,ESSEC Business School,Sciences Po,École Polytechnique,Université Paris-Saclay,Sorbonne Université,' +
      'INSEAD,ESCP Business School,EDHEC Business School,CentraleSupélec,Université de Lyon,Université de Bordeaux,EM ' +
      'Lyon Business School',
  ),
  in: l(
    'Indian Institute of Technology Bombay,Indian Institute of Technology Delhi,Indian Institute of Technology ' +
      'Madras,Indian Institute of Management Ahmedabad,Indian Institute of Management Bangalore,Anna University,' +
      'University of Delhi,Visvesvaraya Technological University,BITS Pilani,VIT University,Manipal Institute of ' +
      'Technology,Jawaharlal Nehru Technological University,University of Mumbai,Savitribai Phule Pune University,' +
      'Amity University,SRM Institute of Science and Technology',
  ),
  ca: l(
    'University of Toronto,McGill University,University of British Columbia,University of Waterloo,McMaster ' +
      "University,Queen's University,Western University,University of Alberta,Université de Montréal,University of " +
      'Calgary,Concordia University,Simon Fraser University',
  ),
  au: l(
    'University of Melbourne,University of Sydney,Australian National University,UNSW Sydney,Monash University,' +
      'University of Queensland,RMIT University,University of Technology Sydney,Macquarie University,Queensland ' +
      'University of Technology',
  ),
  nl: l(
    'University of Amsterdam,Delft University of Technology,Erasmus University Rotterdam,Leiden University,Utrecht ' +
      'University,Eindhoven University of Technology,University of Groningen,Vrije Universiteit Amsterdam,Tilburg ' +
      'University',
  ),
  br: l(
    'Universidade de São Paulo,Universidade Estadual de Campinas,Universidade Federal do Rio de Janeiro,Fundação ' +
      'Getulio Vargas,Insper,Universidade Federal de Minas Gerais,Pontifícia Universidade Católica do Rio de Janeiro,' +
      'Universidade Presbiteriana Mackenzie',
  ),
  es: l(
    'Universidad Complutense de Madrid,Universitat de Barcelona,IE Business School,ESADE,IESE Business School,' +
      'Universidad Politécnica de Madrid,Universitat Pompeu Fabra,Universidad Carlos III de Madrid,Universidad de ' +
      'Sevilla,Universitat Politècnica de València',
  ),
  it: l(
    'Politecnico di Milano,Università Bocconi,Sapienza Università di Roma,Università di Bologna,Politecnico di ' +
      'Torino,Università degli Studi di Milano',
  ),
  se: l(
    'KTH Royal Institute of Technology,Stockholm University,Lund University,Uppsala University,Chalmers University ' +
      'of Technology,Stockholm School of Economics',
  ),
  ch: l('ETH Zurich,EPFL,University of Zurich,University of St. Gallen,University of Geneva'),
  ie: l('Trinity College Dublin,University College Dublin,University College Cork,Dublin City University'),
  sg: l('National University of Singapore,Nanyang Technological University,Singapore Management University'),
  jp: l('University of Tokyo,Kyoto University,Keio University,Waseda University,Osaka University'),
  mx: l('Tecnológico de Monterrey,Universidad Nacional Autónoma de México,ITAM,Universidad Iberoamericana'),
  pl: l(
    'University of Warsaw,Warsaw University of Technology,Jagiellonian University,AGH University of Science and ' +
      'Technology',
  ),
  cn: l('Tsinghua University,Peking University,Fudan University,Shanghai Jiao Tong University,Zhejiang University'),
  il: l(
    'Tel Aviv University,Technion – Israel Institute of Technology,Hebrew University of Jerusalem,Reichman University',
  ),
  za: l('University of Cape Town,University of the Witwatersrand,Stellenbosch University,University of Pretoria'),
  ng: l('University of Lagos,University of Ibadan,Obafemi Awolowo University,Covenant University'),
  kr: l('Seoul National University,KAIST,Yonsei University,Korea University'),
};

/** Schools anyone may have attended (online and international programs). */
export const GLOBAL_SCHOOLS = l(
  'Coursera,Harvard Business School,INSEAD,London Business School,General Assembly,The Open University,University ' +
    'of London,Le Wagon',
);

export const DEGREES: ReadonlyArray<readonly [string, number]> = [
  ["Bachelor's degree", 20],
  ['Bachelor of Science (BS)', 14],
  ['Bachelor of Arts (BA)', 10],
  ['BSc', 5],
  ['BA', 4],
  ["Master's degree", 10],
  ['Master of Business Administration (MBA)', 8],
  ['MBA', 4],
  ['Master of Science (MS)', 6],
  ['MSc', 3],
  ['Doctor of Philosophy (PhD)', 3],
  ['PhD', 1],
  ['Associate degree', 4],
  ['High School Diploma', 2],
  ['Juris Doctor (JD)', 1.5],
  ['Doctor of Medicine (MD)', 1],
  ['Bachelor of Engineering (BE)', 3],
  ['B.Tech', 3],
  ['Diploma', 2],
  ['Certificate', 1],
];

export const FIELDS = l(
  'Computer Science,Business Administration,Economics,Finance,Accounting,Marketing,Mechanical Engineering,' +
    'Electrical Engineering,Civil Engineering,Psychology,Communications,Political Science,English,Mathematics,Biology,' +
    'Chemistry,Physics,Nursing,Education,Information Technology,Law,Medicine,Graphic Design,Journalism,History,' +
    'Sociology,International Relations,Statistics,Data Science,Supply Chain Management,Human Resources Management,' +
    'Industrial Engineering,Public Health,Architecture,Philosophy,Management',
);

export const CERTIFICATIONS: ReadonlyArray<readonly [string, string]> = [
  ['AWS Certified Solutions Architect – Associate', 'Amazon Web Services (AWS)'],
  ['AWS Certified Cloud Practitioner', 'Amazon Web Services (AWS)'],
  ['Project Management Professional (PMP)', 'Project Management Institute'],
  ['Certified ScrumMaster (CSM)', 'Scrum Alliance'],
  ['Professional Scrum Master I', 'Scrum.org'],
  ['Google Analytics Certification', 'Google'],
  ['Google Ads Search Certification', 'Google'],
  ['HubSpot Inbound Marketing', 'HubSpot Academy'],
  ['Salesforce Certified Administrator', 'Salesforce'],
  ['Certified Public Accountant (CPA)', 'AICPA'],
  ['Chartered Financial Analyst (CFA)', 'CFA Institute'],
  ['SHRM Certified Professional (SHRM-CP)', 'Society for Human Resource Management'],
  ['PHR', 'HR Certification Institute'],
  ['CISSP', 'ISC2'],
  ['CompTIA Security+', 'CompTIA'],
  ['CompTIA A+', 'CompTIA'],
  ['Cisco Certified Network Associate (CCNA)', 'Cisco'],
  ['Microsoft Certified: Azure Fundamentals', 'Microsoft'],
  ['Microsoft Certified: Azure Administrator Associate', 'Microsoft'],
  ['Google Cloud Professional Cloud Architect', 'Google Cloud'],
  ['Certified Kubernetes Administrator (CKA)', 'The Linux Foundation'],
  ['Lean Six Sigma Green Belt', 'ASQ'],
  ['Six Sigma Black Belt', 'ASQ'],
  ['ITIL 4 Foundation', 'AXELOS'],
  ['Registered Nurse (RN)', 'State Board of Nursing'],
  ['Basic Life Support (BLS)', 'American Heart Association'],
  ['Certified Information Privacy Professional (CIPP/E)', 'IAPP'],
  ['Certified Supply Chain Professional (CSCP)', 'APICS'],
  ['Certified Professional in Supply Management (CPSM)', 'Institute for Supply Management'],
  ['OSHA 30-Hour Construction', 'OSHA'],
  ['LEED Green Associate', 'U.S. Green Building Council'],
  ['Tableau Desktop Specialist', 'Tableau'],
  ['Meta Certified Digital Marketing Associate', 'Meta'],
  ['TOEFL', 'ETS'],
  ['Certified Financial Planner (CFP)', 'CFP Board'],
];
