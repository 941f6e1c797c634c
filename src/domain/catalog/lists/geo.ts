/** Family B regions and continents, derived from the person's country (ISO-2 slug). */
export const REGIONS = ['NORAM', 'EMEA', 'APAC', 'LATAM'] as const;
export const CONTINENTS = [
  'North America',
  'Europe',
  'Asia',
  'South America',
  'Africa',
  'Oceania',
  'Antarctica',
] as const;
export type Region = (typeof REGIONS)[number];
export type Continent = (typeof CONTINENTS)[number];

// Central America and the Caribbean count as North America; transcontinental countries sit where
// users look for them (ru Europe, tr/caucasus Asia, eg Africa). Sub-Antarctic islands follow their
// nearest inhabited continent so only Antarctica itself lacks a region.
const BY_CONTINENT: Readonly<Record<Continent, string>> = {
  'North America':
    'us ca bm gl pm mx bz cr sv gt hn ni pa ' +
    'ag ai aw bb bl bq bs cu cw dm do gd gp ht jm kn ky lc mf mq ms pr sx tc tt vc vg vi',
  'South America': 'ar bo br cl co ec fk gf gs gy pe py sr uy ve',
  Europe:
    'ad al at ax ba be bg by ch cy cz de dk ee es fi fo fr gb gg gi gr hr hu ie im is it je li lt lu lv ' +
    'mc md me mk mt nl no pl pt ro rs ru se si sj sk sm ua va xk',
  Asia:
    'ae af am az bd bh bn bt cc cn cx ge hk id il in io iq ir jo jp kg kh kp kr kw kz la lb lk mm mn mo mv my ' +
    'np om ph pk ps qa sa sg sy th tj tl tm tr tw uz vn ye',
  Africa:
    'ao bf bi bj bv bw cd cf cg ci cm cv dj dz eg eh er et ga gh gm gn gq gw ke km lr ls ly ma mg ml mr mu mw mz ' +
    'na ne ng re rw sc sd sh sl sn so ss st sz td tf tg tn tz ug yt za zm zw',
  Oceania: 'as au ck fj fm gu hm ki mh mp nc nf nr nu nz pf pg pn pw sb tk to tv um vu wf ws',
  Antarctica: 'aq',
};

/** North American countries outside Latin America (the rest of the continent, Caribbean included, is LATAM). */
const NORAM = new Set(['us', 'ca', 'bm', 'gl', 'pm']);
/** The Middle East and the Caucasus are sold from EMEA although they lie in Asia. */
const MIDDLE_EAST = new Set([
  'ae',
  'am',
  'az',
  'bh',
  'ge',
  'il',
  'iq',
  'ir',
  'jo',
  'kw',
  'lb',
  'om',
  'ps',
  'qa',
  'sa',
  'sy',
  'tr',
  'ye',
]);

/** country slug -> continent; filled for every ISO-2 country. */
export const COUNTRY_CONTINENT: Readonly<Record<string, Continent>> = Object.fromEntries(
  (Object.entries(BY_CONTINENT) as Array<[Continent, string]>).flatMap(([continent, slugs]) =>
    slugs.split(' ').map((slug) => [slug, continent] as const),
  ),
);

/**
 * Region rule: EMEA = Europe, Africa, Middle East; APAC = rest of Asia, Oceania; NORAM = US, Canada and their northern
 * neighbours; LATAM = the rest of the Americas.
 */
function regionOf(slug: string, continent: Continent): Region | undefined {
  switch (continent) {
    case 'Europe':
    case 'Africa':
      return 'EMEA';
    case 'Asia':
      return MIDDLE_EAST.has(slug) ? 'EMEA' : 'APAC';
    case 'Oceania':
      return 'APAC';
    case 'North America':
      return NORAM.has(slug) ? 'NORAM' : 'LATAM';
    case 'South America':
      return 'LATAM';
    case 'Antarctica':
      return undefined;
  }
}

/** country slug -> region; every country with a continent has a region except Antarctica. */
export const COUNTRY_REGION: Readonly<Record<string, Region>> = Object.fromEntries(
  Object.entries(COUNTRY_CONTINENT).flatMap(([slug, continent]) => {
    const region = regionOf(slug, continent);
    return region ? [[slug, region] as const] : [];
  }),
);
