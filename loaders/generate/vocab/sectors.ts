/**
 * Sectors group the catalog's industries so that names, specialties, codes, job functions and revenue
 * of a company agree. An industry label is placed by the first pattern it matches.
 */
export interface Sector {
  /** Matched against the lowercase industry label. */
  match: RegExp;
  /** Job functions over-represented among its employees. */
  fns: readonly string[];
  /** Words that end company names ("Northwind Logistics"). */
  words: readonly string[];
  specialties: readonly string[];
  startup: readonly string[];
  /** Typical yearly revenue per employee, USD. */
  revenuePerEmployee: number;
  /** Share of companies from the generic draw landing in this sector. */
  weight: number;
}

const l = (s: string): string[] => s.split(',').map((x) => x.trim());

export const SECTORS: Readonly<Record<string, Sector>> = {
  software: {
    match:
      /software|internet|saas|computer games|mobile gaming|blockchain|technology, information and internet|data infrastructure/,
    fns: l('engineering,sales_and_bizdev,marketing_and_advertising,customer_service'),
    words: l('Software,Labs,Technologies,Systems,Cloud,AI,Analytics,Data,Apps,Digital'),
    specialties: l(
      'SaaS,Cloud Computing,Machine Learning,Data Analytics,APIs,Developer Tools,Cybersecurity,DevOps,Mobile Apps,' +
        'B2B Software,Artificial Intelligence,Workflow Automation',
    ),
    startup: l('SaaS,Artificial Intelligence,Developer Tools,Enterprise Software,Analytics,Cybersecurity'),
    revenuePerEmployee: 230_000,
    weight: 14,
  },
  it_services: {
    match: /it services|information technology|it system|computer and network|network security|cloud|data/,
    fns: l('information_technology,engineering,sales_and_bizdev'),
    words: l('IT Solutions,Consulting,Systems,Networks,Tech,Infotech,Digital'),
    specialties: l(
      'Managed Services,IT Consulting,Cloud Migration,Network Security,Systems Integration,Help Desk Support,' +
        'Digital Transformation,ERP Implementation',
    ),
    startup: l('IT Services,Cloud Infrastructure,Cybersecurity'),
    revenuePerEmployee: 150_000,
    weight: 8,
  },
  insurance: {
    match: /insurance/,
    fns: l('finance_and_accounting,sales_and_bizdev,customer_service'),
    words: l('Insurance,Assurance,Mutual,Underwriters,Risk'),
    specialties: l(
      'Property & Casualty,Life Insurance,Commercial Insurance,Claims Management,Risk Management,Employee Benefits',
    ),
    startup: l('InsurTech'),
    revenuePerEmployee: 450_000,
    weight: 2.5,
  },
  finance: {
    match: /financ|bank|investment|capital market|venture capital|private equity|fintech|credit|fund|securities|trust/,
    fns: l('finance_and_accounting,sales_and_bizdev,information_technology'),
    words: l('Capital,Partners,Financial,Bank,Advisors,Wealth,Investments,Holdings'),
    specialties: l(
      'Wealth Management,Private Equity,Commercial Lending,Payments,Asset Management,Financial Planning,Mergers & ' +
        'Acquisitions,Venture Capital',
    ),
    startup: l('FinTech,Payments,Lending,WealthTech'),
    revenuePerEmployee: 400_000,
    weight: 7,
  },
  pharma: {
    match: /pharma|biotech|life science|medical device|medical equipment/,
    fns: l('research_and_science,manufacturing_and_production,healthcare_and_social_services'),
    words: l('Therapeutics,Biosciences,Pharma,Bio,Medical,Diagnostics'),
    specialties: l(
      'Drug Discovery,Clinical Trials,Oncology,Gene Therapy,Medical Devices,Diagnostics,Biologics,Regulatory Affairs',
    ),
    startup: l('Biotech,MedTech,HealthTech'),
    revenuePerEmployee: 350_000,
    weight: 2.5,
  },
  health: {
    match: /hospital|health|medical|dental|wellness|nursing|veterinar|mental|physician|clinic|care/,
    fns: l('healthcare_and_social_services,healthcare_and_social_services,healthcare_and_social_services,operations'),
    words: l('Health,Medical Center,Clinic,Care,Health System,Family Practice,Dental'),
    specialties: l(
      'Primary Care,Patient Care,Behavioral Health,Pediatrics,Orthopedics,Telehealth,Home Care,Dental Care',
    ),
    startup: l('HealthTech,Digital Health'),
    revenuePerEmployee: 120_000,
    weight: 8,
  },
  education: {
    match: /educat|school|universit|e-learning|training|academ|college/,
    fns: l('education,education,education,operations'),
    words: l('Academy,Learning,School,Institute,Education,University'),
    specialties: l(
      'K-12 Education,Higher Education,Online Learning,Professional Development,STEM Education,Curriculum Design,' +
        'Tutoring',
    ),
    startup: l('EdTech'),
    revenuePerEmployee: 80_000,
    weight: 5,
  },
  government: {
    match:
      /government|public policy|administration of|armed forces|military|law enforcement|public safety|defense|legislative|courts|police|fire/,
    fns: l('government_and_public_safety,government_and_public_safety,operations'),
    words: l('Department,Authority,Agency,Office,Services'),
    specialties: l('Public Administration,Public Safety,Emergency Services,Policy Development,Community Services'),
    startup: l('GovTech'),
    revenuePerEmployee: 100_000,
    weight: 2,
  },
  manufacturing: {
    match:
      /manufactur|machinery|industrial|automotive|aviation|aerospace|chemical|plastic|semiconductor|electric|electronic|textile|paper|metal|mining|packaging/,
    fns: l('manufacturing_and_production,engineering,supply_chain_and_logistics,procurement'),
    words: l('Manufacturing,Industries,Components,Precision,Engineering,Materials,Works'),
    specialties: l(
      'Precision Machining,Lean Manufacturing,Quality Control,Injection Molding,Automation,Supply Chain Management,' +
        'Product Design,CNC Machining',
    ),
    startup: l('Robotics,Hardware,Advanced Manufacturing'),
    revenuePerEmployee: 250_000,
    weight: 9,
  },
  retail: {
    match: /retail|e-commerce|ecommerce|wholesale|apparel|fashion|luxury|consumer goods|supermarket|grocer/,
    fns: l('sales_and_bizdev,supply_chain_and_logistics,customer_service,operations'),
    words: l('Stores,Outfitters,Supply,Goods,Market,Shop,Trading'),
    specialties: l('E-commerce,Omnichannel Retail,Merchandising,Consumer Products,Private Label,Fulfillment'),
    startup: l('E-commerce,Marketplace,Direct to Consumer'),
    revenuePerEmployee: 200_000,
    weight: 6,
  },
  consumer: {
    match: /food|beverage|restaurant|cosmetic|sporting|consumer|personal care|tobacco|dairy|bakery/,
    fns: l('manufacturing_and_production,operations,marketing_and_advertising'),
    words: l('Foods,Brands,Kitchen,Beverages,Naturals,Co.'),
    specialties: l('Food Production,Beverages,Restaurants,Organic Products,Consumer Brands,Catering'),
    startup: l('FoodTech,Consumer Brands'),
    revenuePerEmployee: 180_000,
    weight: 4,
  },
  media: {
    match:
      /media|entertainment|broadcast|publish|newspaper|film|music|motion picture|online audio|book|periodical|journalism|animation|gaming/,
    fns: l('writing_and_editorial,arts_and_creative,marketing_and_advertising'),
    words: l('Media,Studios,Pictures,Entertainment,Publishing,Records,Productions'),
    specialties: l(
      'Content Production,Publishing,Film Production,Music,Digital Media,Podcasts,Journalism,Video Production',
    ),
    startup: l('Media,Creator Economy'),
    revenuePerEmployee: 200_000,
    weight: 4,
  },
  marketing: {
    match: /marketing|advertising|public relations|design|graphic|market research|branding/,
    fns: l('marketing_and_advertising,arts_and_creative,writing_and_editorial'),
    words: l('Creative,Agency,Marketing,Media Group,Studio,Collective,Communications'),
    specialties: l(
      'Digital Marketing,Brand Strategy,SEO,Social Media Marketing,Content Marketing,Public Relations,Web Design,' +
        'Paid Media',
    ),
    startup: l('MarTech,AdTech'),
    revenuePerEmployee: 150_000,
    weight: 5,
  },
  professional: {
    match:
      /consult|legal|law|accounting|professional services|outsourcing|translation|research services|business services/,
    fns: l('general_management,legal,finance_and_accounting'),
    words: l('Consulting,Partners,Advisors,Group,Associates,Law Group,& Co.'),
    specialties: l(
      'Management Consulting,Strategy,Tax Advisory,Corporate Law,Litigation,Audit,Business Process Outsourcing,' +
        'Compliance',
    ),
    startup: l('LegalTech,Professional Services'),
    revenuePerEmployee: 180_000,
    weight: 8,
  },
  construction: {
    match: /construction|architect|civil engineering|building|engineering services/,
    fns: l('construction_and_trades,construction_and_trades,engineering'),
    words: l('Construction,Builders,Contracting,Homes,Structures,Engineering'),
    specialties: l(
      'Commercial Construction,Residential Construction,General Contracting,Design-Build,Renovation,Project ' +
        'Management,Civil Engineering',
    ),
    startup: l('ConTech,PropTech'),
    revenuePerEmployee: 220_000,
    weight: 5,
  },
  real_estate: {
    match: /real estate|property|leasing|housing/,
    fns: l('sales_and_bizdev,operations,finance_and_accounting'),
    words: l('Realty,Properties,Real Estate,Homes,Estates,Land'),
    specialties: l(
      'Commercial Real Estate,Property Management,Residential Sales,Real Estate Investment,Leasing,Development',
    ),
    startup: l('PropTech'),
    revenuePerEmployee: 250_000,
    weight: 4,
  },
  transport: {
    match: /transport|logistic|trucking|freight|shipping|airline|maritime|rail|warehous|package|delivery/,
    fns: l('supply_chain_and_logistics,supply_chain_and_logistics,operations'),
    words: l('Logistics,Freight,Transport,Express,Shipping,Lines,Carriers'),
    specialties: l(
      'Freight Forwarding,Last Mile Delivery,Warehousing,Supply Chain,Trucking,Cold Chain,Customs Brokerage',
    ),
    startup: l('Logistics Tech,Mobility'),
    revenuePerEmployee: 200_000,
    weight: 4,
  },
  energy: {
    match: /oil|gas|energy|utilit|renewable|solar|power|environment|wind/,
    fns: l('engineering,operations,construction_and_trades'),
    words: l('Energy,Power,Solar,Resources,Utilities,Renewables'),
    specialties: l(
      'Renewable Energy,Solar Installation,Oil & Gas,Energy Efficiency,Power Generation,Environmental Services',
    ),
    startup: l('CleanTech,Climate Tech'),
    revenuePerEmployee: 500_000,
    weight: 3,
  },
  hospitality: {
    match: /hospitality|hotel|travel|leisure|tourism|events|recreation|gambling|casino|fitness/,
    fns: l('operations,customer_service,sales_and_bizdev'),
    words: l('Hotels,Resorts,Travel,Hospitality,Events,Experiences'),
    specialties: l('Hospitality,Event Planning,Travel Management,Hotels,Catering,Guest Experience'),
    startup: l('TravelTech'),
    revenuePerEmployee: 90_000,
    weight: 4,
  },
  nonprofit: {
    match: /non-profit|nonprofit|philanthrop|civic|religious|fundraising|social/,
    fns: l('operations,general_management,healthcare_and_social_services'),
    words: l('Foundation,Alliance,Trust,Fund,Society,Network,Coalition'),
    specialties: l('Community Development,Advocacy,Fundraising,Youth Programs,Social Services,Volunteer Management'),
    startup: l('Social Impact'),
    revenuePerEmployee: 70_000,
    weight: 3,
  },
  telecom: {
    match: /telecom|wireless|satellite/,
    fns: l('engineering,information_technology,sales_and_bizdev,customer_service'),
    words: l('Telecom,Networks,Communications,Wireless,Connect'),
    specialties: l('Fiber Networks,5G,Unified Communications,VoIP,Network Infrastructure'),
    startup: l('Telecom'),
    revenuePerEmployee: 350_000,
    weight: 2,
  },
  agriculture: {
    match: /farm|agricultur|ranch|fisher|forestry/,
    fns: l('operations,manufacturing_and_production,supply_chain_and_logistics'),
    words: l('Farms,Agri,Growers,Harvest,Ranch,Produce'),
    specialties: l('Crop Production,Agronomy,Precision Agriculture,Livestock,Organic Farming'),
    startup: l('AgTech'),
    revenuePerEmployee: 150_000,
    weight: 1.5,
  },
  staffing: {
    match: /staffing|recruit|human resources|employment/,
    fns: l('human_resources,sales_and_bizdev,human_resources'),
    words: l('Staffing,Talent,Recruiting,Workforce,Search Partners'),
    specialties: l('Executive Search,Temporary Staffing,IT Recruitment,RPO,Talent Acquisition,Payroll Services'),
    startup: l('HR Tech,Future of Work'),
    revenuePerEmployee: 160_000,
    weight: 3,
  },
};

/** Sector of an industry label; labels no pattern claims count as professional services. */
export function sectorOfLabel(label: string): string {
  const lower = label.toLowerCase();
  for (const [name, s] of Object.entries(SECTORS)) if (s.match.test(lower)) return name;
  return 'professional';
}
