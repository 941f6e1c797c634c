/**
 * A small, real table of NAICS 2017/2022, US SIC 1987 and UK SIC 2007 codes per sector, so a company's
 * codes agree with its industries. Notation: `code description`, one per line.
 */
export interface SectorCodes {
  naics: string;
  sic: string;
  uksic: string;
}

export const SECTOR_CODES: Readonly<Record<string, SectorCodes>> = {
  software: {
    naics: `511210 Software Publishers
513210 Software Publishers
518210 Computing Infrastructure Providers, Data Processing, Web Hosting, and Related Services
541511 Custom Computer Programming Services`,
    sic: `7372 Prepackaged Software
7371 Computer Programming Services
7374 Computer Processing and Data Preparation and Processing Services`,
    uksic: `62012 Business and domestic software development
58290 Other software publishing
63110 Data processing, hosting and related activities`,
  },
  it_services: {
    naics: `541512 Computer Systems Design Services
541513 Computer Facilities Management Services
541519 Other Computer Related Services`,
    sic: `7373 Computer Integrated Systems Design
7379 Computer Related Services, NEC
7376 Computer Facilities Management Services`,
    uksic: `62020 Information technology consultancy activities
62030 Computer facilities management activities
62090 Other information technology service activities`,
  },
  finance: {
    naics: `522110 Commercial Banking
523150 Investment Banking and Securities Intermediation
523940 Portfolio Management and Investment Advice
522320 Financial Transactions Processing, Reserve, and Clearinghouse Activities`,
    sic: `6021 National Commercial Banks
6211 Security Brokers, Dealers, and Flotation Companies
6282 Investment Advice
6099 Functions Related to Depository Banking, NEC`,
    uksic: `64191 Banks
64999 Financial intermediation not elsewhere classified
66300 Fund management activities
66190 Other activities auxiliary to financial services, except insurance and pension funding`,
  },
  insurance: {
    naics: `524126 Direct Property and Casualty Insurance Carriers
524210 Insurance Agencies and Brokerages
524113 Direct Life Insurance Carriers`,
    sic: `6411 Insurance Agents, Brokers, and Service
6331 Fire, Marine, and Casualty Insurance
6311 Life Insurance`,
    uksic: `65120 Non-life insurance
66220 Activities of insurance agents and brokers
65110 Life insurance`,
  },
  health: {
    naics: `622110 General Medical and Surgical Hospitals
621111 Offices of Physicians (except Mental Health Specialists)
621210 Offices of Dentists
621610 Home Health Care Services`,
    sic: `8062 General Medical and Surgical Hospitals
8011 Offices and Clinics of Doctors of Medicine
8021 Offices and Clinics of Dentists
8082 Home Health Care Services`,
    uksic: `86101 Hospital activities
86210 General medical practice activities
86230 Dental practice activities
87100 Residential nursing care activities`,
  },
  pharma: {
    naics: `325412 Pharmaceutical Preparation Manufacturing
541714 Research and Development in Biotechnology (except Nanobiotechnology)
339112 Surgical and Medical Instrument Manufacturing`,
    sic: `2834 Pharmaceutical Preparations
2836 Biological Products, Except Diagnostic Substances
3841 Surgical and Medical Instruments and Apparatus`,
    uksic: `21200 Manufacture of pharmaceutical preparations
72110 Research and experimental development on biotechnology
32500 Manufacture of medical and dental instruments and supplies`,
  },
  education: {
    naics: `611310 Colleges, Universities, and Professional Schools
611110 Elementary and Secondary Schools
611430 Professional and Management Development Training`,
    sic: `8221 Colleges, Universities, and Professional Schools
8211 Elementary and Secondary Schools
8299 Schools and Educational Services, NEC`,
    uksic: `85421 First-degree level higher education
85310 General secondary education
85590 Other education not elsewhere classified`,
  },
  government: {
    naics: `921110 Executive Offices
922120 Police Protection
922160 Fire Protection
928110 National Security`,
    sic: `9111 Executive Offices
9221 Police Protection
9224 Fire Protection
9711 National Security`,
    uksic: `84110 General public administration activities
84240 Public order and safety activities
84250 Fire service activities
84220 Defence activities`,
  },
  manufacturing: {
    naics: `333249 Other Industrial Machinery Manufacturing
336390 Other Motor Vehicle Parts Manufacturing
334413 Semiconductor and Related Device Manufacturing
332710 Machine Shops
336411 Aircraft Manufacturing`,
    sic: `3559 Special Industry Machinery, NEC
3714 Motor Vehicle Parts and Accessories
3674 Semiconductors and Related Devices
3599 Industrial and Commercial Machinery and Equipment, NEC
3721 Aircraft`,
    uksic: `28990 Manufacture of other special-purpose machinery n.e.c.
29320 Manufacture of other parts and accessories for motor vehicles
26110 Manufacture of electronic components
25620 Machining
30300 Manufacture of air and spacecraft and related machinery`,
  },
  retail: {
    naics: `455110 Department Stores
458110 Clothing and Clothing Accessories Retailers
454110 Electronic Shopping and Mail-Order Houses
423430 Computer and Computer Peripheral Equipment and Software Merchant Wholesalers`,
    sic: `5311 Department Stores
5651 Family Clothing Stores
5961 Catalog and Mail-Order Houses
5045 Computers and Computer Peripheral Equipment and Software`,
    uksic: `47190 Other retail sale in non-specialised stores
47710 Retail sale of clothing in specialised stores
47910 Retail sale via mail order houses or via Internet
46510 Wholesale of computers, computer peripheral equipment and software`,
  },
  consumer: {
    naics: `311999 All Other Miscellaneous Food Manufacturing
312111 Soft Drink Manufacturing
722511 Full-Service Restaurants
325620 Toilet Preparation Manufacturing`,
    sic: `2099 Food Preparations, NEC
2086 Bottled and Canned Soft Drinks and Carbonated Waters
5812 Eating Places
2844 Perfumes, Cosmetics, and Other Toilet Preparations`,
    uksic: `10890 Manufacture of other food products n.e.c.
11070 Manufacture of soft drinks; production of mineral waters and other bottled waters
56101 Licensed restaurants
20420 Manufacture of perfumes and toilet preparations`,
  },
  media: {
    naics: `512110 Motion Picture and Video Production
513110 Newspaper Publishers
516120 Television Broadcasting Stations
512250 Record Production and Distribution`,
    sic: `7812 Motion Picture and Video Tape Production
2711 Newspapers: Publishing, or Publishing and Printing
4833 Television Broadcasting Stations
2731 Books: Publishing, or Publishing and Printing`,
    uksic: `59111 Motion picture production activities
58130 Publishing of newspapers
60200 Television programming and broadcasting activities
58110 Book publishing`,
  },
  marketing: {
    naics: `541810 Advertising Agencies
541613 Marketing Consulting Services
541820 Public Relations Agencies
541430 Graphic Design Services`,
    sic: `7311 Advertising Agencies
8743 Public Relations Services
7336 Commercial Art and Graphic Design
8732 Commercial Economic, Sociological, and Educational Research`,
    uksic: `73110 Advertising agencies
70210 Public relations and communications activities
74100 Specialised design activities
73200 Market research and public opinion polling`,
  },
  professional: {
    naics: `541611 Administrative Management and General Management Consulting Services
541110 Offices of Lawyers
541211 Offices of Certified Public Accountants
541990 All Other Professional, Scientific, and Technical Services`,
    sic: `8742 Management Consulting Services
8111 Legal Services
8721 Accounting, Auditing, and Bookkeeping Services
8999 Services, NEC`,
    uksic: `70229 Management consultancy activities other than financial management
69102 Solicitors
69201 Accounting and auditing activities
74909 Other professional, scientific and technical activities n.e.c.`,
  },
  construction: {
    naics: `236220 Commercial and Institutional Building Construction
238210 Electrical Contractors and Other Wiring Installation Contractors
541310 Architectural Services
237310 Highway, Street, and Bridge Construction`,
    sic: `1542 General Contractors-Nonresidential Buildings, Other than Industrial Buildings and Warehouses
1731 Electrical Work
8712 Architectural Services
1611 Highway and Street Construction, Except Elevated Highways`,
    uksic: `41201 Construction of commercial buildings
43210 Electrical installation
71111 Architectural activities
42110 Construction of roads and motorways`,
  },
  real_estate: {
    naics: `531210 Offices of Real Estate Agents and Brokers
531120 Lessors of Nonresidential Buildings (except Miniwarehouses)
531311 Residential Property Managers`,
    sic: `6531 Real Estate Agents and Managers
6512 Operators of Nonresidential Buildings
6552 Land Subdividers and Developers, Except Cemeteries`,
    uksic: `68310 Real estate agencies
68209 Other letting and operating of own or leased real estate
68320 Management of real estate on a fee or contract basis`,
  },
  transport: {
    naics: `484121 General Freight Trucking, Long-Distance, Truckload
488510 Freight Transportation Arrangement
493110 General Warehousing and Storage
481111 Scheduled Passenger Air Transportation`,
    sic: `4213 Trucking, Except Local
4731 Arrangement of Transportation of Freight and Cargo
4225 General Warehousing and Storage
4512 Air Transportation, Scheduled`,
    uksic: `49410 Freight transport by road
52290 Other transportation support activities
52103 Operation of warehousing and storage facilities for land transport activities
51101 Scheduled passenger air transport`,
  },
  energy: {
    naics: `211120 Crude Petroleum Extraction
221114 Solar Electric Power Generation
221122 Electric Power Distribution
562211 Hazardous Waste Treatment and Disposal`,
    sic: `1311 Crude Petroleum and Natural Gas
4911 Electric Services
4931 Electric and Other Services Combined
4953 Refuse Systems`,
    uksic: `06100 Extraction of crude petroleum
35110 Production of electricity
35130 Distribution of electricity
38220 Treatment and disposal of hazardous waste`,
  },
  hospitality: {
    naics: `721110 Hotels (except Casino Hotels) and Motels
561510 Travel Agencies
713940 Fitness and Recreational Sports Centers
561920 Convention and Trade Show Organizers`,
    sic: `7011 Hotels and Motels
4724 Travel Agencies
7991 Physical Fitness Facilities
7389 Business Services, NEC`,
    uksic: `55100 Hotels and similar accommodation
79110 Travel agency activities
93130 Fitness facilities
82302 Activities of conference organisers`,
  },
  nonprofit: {
    naics: `813219 Other Grantmaking and Giving Services
813319 Other Social Advocacy Organizations
813410 Civic and Social Organizations
624190 Other Individual and Family Services`,
    sic: `8399 Social Services, NEC
8641 Civic, Social, and Fraternal Associations
8699 Membership Organizations, NEC
8322 Individual and Family Social Services`,
    uksic: `94990 Activities of other membership organisations n.e.c.
88990 Other social work activities without accommodation n.e.c.
94120 Activities of professional membership organisations
88100 Social work activities without accommodation for the elderly and disabled`,
  },
  telecom: {
    naics: `517111 Wired Telecommunications Carriers
517112 Wireless Telecommunications Carriers (except Satellite)
517410 Satellite Telecommunications`,
    sic: `4813 Telephone Communications, Except Radiotelephone
4812 Radiotelephone Communications
4899 Communications Services, NEC`,
    uksic: `61100 Wired telecommunications activities
61200 Wireless telecommunications activities
61300 Satellite telecommunications activities`,
  },
  agriculture: {
    naics: `111998 All Other Miscellaneous Crop Farming
112111 Beef Cattle Ranching and Farming
115116 Farm Management Services`,
    sic: `0191 General Farms, Primarily Crop
0212 Beef Cattle, Except Feedlots
0762 Farm Management Services`,
    uksic: `01110 Growing of cereals (except rice), leguminous crops and oil seeds
01420 Raising of other cattle and buffaloes
01610 Support activities for crop production`,
  },
  staffing: {
    naics: `561311 Employment Placement Agencies
561320 Temporary Help Services
541612 Human Resources Consulting Services`,
    sic: `7361 Employment Agencies
7363 Help Supply Services
8742 Management Consulting Services`,
    uksic: `78109 Other activities of employment placement agencies
78200 Temporary employment agency activities
78300 Human resources provision and management of human resources functions`,
  },
};
