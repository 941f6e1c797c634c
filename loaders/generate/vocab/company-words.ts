/** Pieces of invented company, investor and tagline text; combinations keep 100 k+ names mostly distinct. */

const l = (s: string): string[] => s.split(',').map((x) => x.trim());

/** Brand prefixes and roots glued into one word: "Brightpath", "Ironforge". */
export const BRAND_PREFIXES = l(
  'Bright,Blue,North,Clear,Silver,Swift,True,Red,Green,Iron,Open,Smart,Quantum,Apex,Summit,Pioneer,Horizon,Vertex,' +
    'Nova,Stellar,Atlas,Cedar,Oak,River,Stone,Sky,Sun,Star,Bold,Prime,Core,Next,Zen,Peak,Echo,Aero,Terra,Hyper,Omni,' +
    'Pure,Wave,Cloud,Data,Net,Flex,Fast,Key,Gold,Ever,Wise,Lumen,Nimbus,Orbit,Pixel,Signal,Spark,Vital,Wild,Deep,High,' +
    'Fair,True North,Crown,Lake,Granite,Harbor,Maple,Birch,Alpine',
).filter((w) => !w.includes(' '));
export const BRAND_ROOTS = l(
  'path,point,line,bridge,works,field,stone,wave,gate,light,mark,shift,stack,scale,forge,craft,ware,sphere,wind,' +
    'view,ridge,port,hub,loop,bit,nest,leaf,mind,sense,flow,lab,yard,beam,dock,grid,lane,vista,well,crest,rock,base,' +
    'spring,way,scope,logic,tide,fox,pulse,street,wise',
);

/** Invented single words: "Zentrio", "Veltora". */
export const SYLLABLES_START = l(
  'Zen,Vel,Cor,Lum,Nex,Ar,Qui,Sol,Tri,Ver,Kal,Mir,Ori,Pax,Rho,Syn,Tal,Ula,Vox,Xen,Yo,Zo,Bri,Cla,Dro,Fen',
);
export const SYLLABLES_END = l('trio,tora,via,ara,ion,ium,ex,ify,ora,ent,ica,ly,eon,ova,ix,ano,ero,ux,ity,ada');

export const ADJECTIVES = l(
  'Blue,Golden,Silver,Northern,Pacific,Atlantic,Summit,Evergreen,Granite,Redwood,Crystal,Liberty,Heritage,Pinnacle,' +
    'Keystone,Meridian,Lakeside,Riverside,Highland,Coastal,Cardinal,Sterling,Emerald,Frontier,Union,Capital,Central,' +
    'Western,Eastern,Southern,Royal,Grand,United,Allied,First,Premier,Metro,Global,American,National',
);
export const NOUNS = l(
  'Harbor,Ridge,Peak,Valley,Bay,Oak,Pine,Point,Creek,Bridge,Field,Rock,Crown,Arrow,Anchor,Compass,Lantern,Falcon,' +
    'Eagle,Fox,Bear,Wolf,Lion,Oakleaf,Star,Summit,Gate,Mill,Hill,Stone,Shield,Beacon,Horizon,Tower,Forge,Harvest,' +
    'Meadow,Cove,Canyon,Island',
);

export const ENTITY_TYPE_WEIGHTS: ReadonlyArray<readonly [string, number]> = [
  ['Privately Held', 70],
  ['Public Company', 6],
  ['Non Profit', 5],
  ['Self-Employed', 4],
  ['Partnership', 4],
  ['Educational', 3],
  ['Government Agency', 2],
  ['privately held', 2],
  ['Sole Proprietorship', 1],
  ['Nonprofit', 1],
  ['public', 1],
];

export const STOCK_EXCHANGES: Readonly<Record<string, string>> = {
  us: 'NASDAQ',
  gb: 'LSE',
  de: 'ETR',
  fr: 'EPA',
  ca: 'TSX',
  au: 'ASX',
  in: 'NSE',
  jp: 'TYO',
  nl: 'AMS',
  br: 'BVMF',
  es: 'BME',
};

export const INVESTOR_WORDS = l(
  'Accel,Summit,Horizon,Foundry,Lightspeed,Granite,Northzone,Redpoint,Bessemer,Insight,Ironwood,Pillar,Crosslink,' +
    'Costanoa,Emergence,Amplify,Bedrock,Craft,Cowboy,Harmony,Initialized,Kindred,Lerer,Obvious,Precursor,Slow,Spark,' +
    'Uncork,Work-Bench,Atomico',
);
export const INVESTOR_KINDS = l('Ventures,Capital,Partners,Growth,Venture Partners,Equity,Investments,Fund');

export const TAGLINE_ADJECTIVES = l(
  'Smarter,Modern,Trusted,Simple,Fast,Secure,Reliable,Human-centered,End-to-end,Award-winning,Sustainable,Affordable',
);
export const AUDIENCES = l(
  'growing businesses,enterprise teams,modern finance teams,healthcare providers,families,developers,retailers,' +
    'communities,manufacturers,everyone,small businesses,public sector organizations',
);
