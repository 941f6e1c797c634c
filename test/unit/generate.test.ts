import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { SourceCompany, SourcePerson } from '../../loaders/dump-format.js';
import {
  COMPANY_FIELDS,
  COMPANY_FILL_COLUMNS,
  DEFAULT_AS_OF,
  type GenerateOptions,
  type GenerateResult,
  generateDumps,
  PERSON_FIELDS,
  PERSON_FILL_COLUMNS,
  PLANT_BLOCK,
  plantAt,
  TITLE_ENTRIES,
} from '../../loaders/generate/index.js';
import { COMPANY_COLUMNS, CONTACT_COLUMNS, foldListValue, listValues } from '../../src/domain/catalog/index.js';

const DAY = 86_400_000;
const asOf = DEFAULT_AS_OF.getTime();
const daysBefore = (date: string): number => (asOf - Date.parse(date)) / DAY;

let root: string;
let run = 0;

async function generate(
  opts: Partial<GenerateOptions> & { contacts: number; companies: number },
): Promise<GenerateResult> {
  return generateDumps({ seed: 1, outDir: join(root, `run-${run++}`), ...opts });
}

async function readJsonl<T>(file: string): Promise<T[]> {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as T);
}

/** RFC 4180 reader: quoted cells may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else if (ch !== '\r') cell += ch;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** Reads `a.b`, `roles[0].title` paths; arrays count as present only when non-empty. */
function valueAt(record: object, path: string): unknown {
  let v: unknown = record;
  for (const part of path.split('.')) {
    if (v === null || v === undefined) return v;
    const m = /^(\w+)\[(\d+)\]$/.exec(part);
    v = m
      ? ((v as Record<string, unknown[] | undefined>)[m[1]!] ?? [])[Number(m[2])]
      : (v as Record<string, unknown>)[part];
  }
  return v;
}

function present(v: unknown): boolean {
  return v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0);
}

function mainRole(p: SourcePerson): NonNullable<SourcePerson['roles']>[number] | undefined {
  return p.roles?.find((r) => r.is_primary) ?? p.roles?.[0];
}

/** National digits of a phone: the last 7 identify the line in every format the generator prints. */
const lineDigits = (phone: string): string => phone.replace(/\D/g, '').slice(-7);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'cds-generate-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('generateDumps: determinism and shape', () => {
  it('writes byte-identical files for the same options and different ones for another seed', async () => {
    const a = await generate({ contacts: 1500, companies: 150, seed: 7 });
    const b = await generate({ contacts: 1500, companies: 150, seed: 7 });
    const c = await generate({ contacts: 1500, companies: 150, seed: 8 });
    // Buffer.equals: jest's deep equality walks megabytes byte by byte.
    const same = async (x: string, y: string): Promise<boolean> => (await readFile(x)).equals(await readFile(y));
    expect(await same(a.peopleFile, b.peopleFile)).toBe(true);
    expect(await same(a.companiesFile, b.companiesFile)).toBe(true);
    expect(await same(a.peopleFile, c.peopleFile)).toBe(false);
    expect(await same(a.companiesFile, c.companiesFile)).toBe(false);
  });

  it('reports counts and file paths, and creates the output folder', async () => {
    const r = await generate({ contacts: 1200, companies: 90 });
    expect(r).toMatchObject({ contacts: 1200, companies: 90 });
    expect(r.peopleFile.endsWith('people.jsonl')).toBe(true);
    expect(r.companiesFile.endsWith('companies.jsonl')).toBe(true);
    expect(await readJsonl(r.peopleFile)).toHaveLength(1200);
    expect(await readJsonl(r.companiesFile)).toHaveLength(90);
    expect(r.ms).toBeGreaterThanOrEqual(0);
  });

  it('writes the same lines gzip-compressed with gzip, which the loader reads as they are', async () => {
    const plain = await generate({ contacts: 1500, companies: 150, seed: 7 });
    const zipped = await generate({ contacts: 1500, companies: 150, seed: 7, gzip: true });
    expect(zipped.peopleFile.endsWith('people.jsonl.gz')).toBe(true);
    expect(zipped.companiesFile.endsWith('companies.jsonl.gz')).toBe(true);
    const people = await readFile(zipped.peopleFile);
    // The gzip magic bytes, and a file much smaller than the lines it holds.
    expect([people[0], people[1]]).toEqual([0x1f, 0x8b]);
    expect(people.length).toBeLessThan((await readFile(plain.peopleFile)).length / 3);
    expect(gunzipSync(people).equals(await readFile(plain.peopleFile))).toBe(true);
    expect(gunzipSync(await readFile(zipped.companiesFile)).equals(await readFile(plain.companiesFile))).toBe(true);
  });

  it('rejects negative or fractional sizes', async () => {
    await expect(generate({ contacts: -1, companies: 10 })).rejects.toThrow(RangeError);
    await expect(generate({ contacts: 10, companies: 1.5 })).rejects.toThrow(RangeError);
  });

  it('writes people without employers when there are no companies', async () => {
    const r = await generate({ contacts: 1000, companies: 0 });
    const people = await readJsonl<SourcePerson>(r.peopleFile);
    expect(people).toHaveLength(1000);
    expect(people.filter((p) => p.roles || p.email)).toEqual([]);
    expect(await readFile(r.companiesFile, 'utf8')).toBe('');
  });

  it('dates follow asOf and profile URLs the network host', async () => {
    const r = await generate({
      contacts: 1000,
      companies: 100,
      asOf: new Date('2030-06-01T00:00:00Z'),
      networkHost: 'example.net',
    });
    const people = await readJsonl<SourcePerson>(r.peopleFile);
    const companies = await readJsonl<SourceCompany>(r.companiesFile);
    expect(people.every((p) => p.updated_at <= '2030-06-01' && p.updated_at >= '2027-06-01')).toBe(true);
    expect(people.filter((p) => p.profile_url).every((p) => p.profile_url!.includes('example.net/in/'))).toBe(true);
    expect(
      companies
        .filter((c) => c.profile_url)
        .every((c) => c.profile_url!.startsWith('https://www.example.net/company/')),
    ).toBe(true);
  });

  it('reports progress up to the total', async () => {
    const calls: Array<[number, number]> = [];
    await generate({ contacts: 15_000, companies: 100, onProgress: (d, t) => calls.push([d, t]) });
    expect(calls.length).toBeGreaterThan(1);
    expect(calls[calls.length - 1]).toEqual([15_100, 15_100]);
  });
});

describe('generateDumps: 20k contacts', () => {
  let people: SourcePerson[];
  let companies: SourceCompany[];
  let ms: number;

  beforeAll(async () => {
    const r = await generate({ contacts: 20_000, companies: 2_000, seed: 42 });
    ms = r.ms;
    people = await readJsonl<SourcePerson>(r.peopleFile);
    companies = await readJsonl<SourceCompany>(r.companiesFile);
  });

  it('is fast', () => {
    // ~1 s on an idle core; the bound leaves room for a busy shared machine.
    expect(ms).toBeLessThan(10_000);
  });

  it('carries the required fields and unique ids on every row', () => {
    const badPeople = people.filter(
      (p) =>
        !/^per_[0-9a-z]{12}$/.test(p.person_id) ||
        !/^\d{4}-\d{2}-\d{2}$/.test(p.updated_at) ||
        daysBefore(p.updated_at) < 0 ||
        daysBefore(p.updated_at) > 3 * 365,
    );
    expect(badPeople).toEqual([]);
    expect(companies.filter((c) => !/^com_[0-9a-z]{12}$/.test(c.company_id) || !c.name)).toEqual([]);
    expect(new Set(people.map((p) => p.person_id)).size).toBe(people.length);
    expect(new Set(companies.map((c) => c.company_id)).size).toBe(companies.length);
  });

  it('links roles to generated companies, with exactly one main role', () => {
    const ids = new Set(companies.map((c) => c.company_id));
    const withRoles = people.filter((p) => p.roles);
    expect(withRoles.filter((p) => p.roles!.filter((r) => r.is_primary).length !== 1)).toEqual([]);
    expect(withRoles.flatMap((p) => p.roles!).filter((r) => !ids.has(r.company_id!))).toEqual([]);
    const twoRoles = people.filter((p) => (p.roles?.length ?? 0) === 2).length / people.length;
    expect(twoRoles).toBeGreaterThan(0.07);
    expect(twoRoles).toBeLessThan(0.13);
  });

  it.each(Object.entries(PERSON_FILL_COLUMNS))('person %s is filled as the catalog says (%s)', (field, column) => {
    const want = CONTACT_COLUMNS.find((c) => c.name === column)!.fill;
    const share = people.filter((p) => present(valueAt(p, field))).length / people.length;
    expect(Math.abs(share - want)).toBeLessThanOrEqual(0.05);
  });

  it.each(Object.entries(COMPANY_FILL_COLUMNS))('company %s is filled as the catalog says (%s)', (field, column) => {
    const want = COMPANY_COLUMNS.find((c) => c.name === column)!.fill;
    const share = companies.filter((c) => present(valueAt(c, field))).length / companies.length;
    expect(Math.abs(share - want)).toBeLessThanOrEqual(0.05);
  });

  it('spells countries as sources do, all foldable, US near half', () => {
    const raw = [
      ...people.map((p) => p.country),
      ...people.map((p) => p.job_location?.country),
      ...companies.flatMap((c) => (c.locations ?? []).map((l) => l.country)),
    ].filter((v): v is string => typeof v === 'string');
    expect(raw.filter((v) => foldListValue('country', v) === undefined)).toEqual([]);
    const us = people.filter((p) => p.country && foldListValue('country', p.country) === 'us');
    const withCountry = people.filter((p) => p.country).length;
    expect(us.length / withCountry).toBeGreaterThan(0.38);
    expect(us.length / withCountry).toBeLessThan(0.52);
    expect(new Set(us.map((p) => p.country)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(people.map((p) => p.country && foldListValue('country', p.country))).size).toBeGreaterThan(25);
  });

  it('uses only foldable industries, entity types, round types and email statuses', () => {
    const unfoldable = (list: string, values: Array<string | null | undefined>): string[] => [
      ...new Set(values.filter((v): v is string => !!v && foldListValue(list, v) === undefined)),
    ];
    expect(
      unfoldable(
        'industry',
        companies.flatMap((c) => c.industries ?? []),
      ),
    ).toEqual([]);
    expect(
      unfoldable(
        'entity_type',
        companies.map((c) => c.entity_type),
      ),
    ).toEqual([]);
    expect(
      unfoldable(
        'funding_round_type',
        companies.flatMap((c) => (c.funding_rounds ?? []).map((r) => r.type)),
      ),
    ).toEqual([]);
    expect(
      unfoldable(
        'email_status',
        people.map((p) => p.email_status),
      ),
    ).toEqual([]);
    const statuses = new Set(people.map((p) => p.email_status).filter(Boolean));
    for (const s of ['valid', 'VALID', 'catch-all', 'invalid', 'unknown']) expect(statuses).toContain(s);
  });

  it('has funding rounds in 2025-2026, Series C+ spellings and public companies with tickers', () => {
    const rounds = companies.flatMap((c) => c.funding_rounds ?? []);
    expect(rounds.every((r) => /^\d{4}-\d{2}-\d{2}$/.test(r.date) && r.date <= '2026-11-01')).toBe(true);
    expect(rounds.filter((r) => r.date >= '2025-01-01').length).toBeGreaterThan(50);
    expect(rounds.some((r) => r.type === 'Series C')).toBe(true);
    expect(rounds.some((r) => r.type === 'Series D')).toBe(true);
    const pub = companies.filter((c) => c.entity_type && foldListValue('entity_type', c.entity_type) === 'public');
    expect(pub.length).toBeGreaterThan(0);
    expect(pub.filter((c) => c.stock_ticker).length).toBeGreaterThan(pub.length / 2);
  });

  it('draws headcounts skewed small with revenue rising with size', () => {
    const counts = companies.map((c) => c.employee_count).filter((n): n is number => typeof n === 'number');
    const small = counts.filter((n) => n <= 50).length / counts.length;
    expect(small).toBeGreaterThan(0.5);
    expect(Math.max(...counts)).toBeGreaterThan(10_000);
    const withRevenue = companies.filter((c) => c.employee_count && c.revenue_usd);
    const meanRevenue = (f: (n: number) => boolean): number => {
      const rows = withRevenue.filter((c) => f(c.employee_count!));
      return rows.reduce((s, c) => s + c.revenue_usd!, 0) / rows.length;
    };
    expect(meanRevenue((n) => n > 1000)).toBeGreaterThan(10 * meanRevenue((n) => n <= 50));
  });

  it('writes websites in mixed forms and emails on the employer domain', () => {
    const sites = companies.map((c) => c.website).filter((w): w is string => !!w);
    expect(sites.some((w) => w.startsWith('https://www.'))).toBe(true);
    expect(sites.some((w) => !w.includes('/'))).toBe(true);
    expect(sites.some((w) => w.startsWith('http://'))).toBe(true);
    const emails = people.map((p) => p.email).filter((e): e is string => !!e);
    expect(emails.some((e) => e !== e.toLowerCase())).toBe(true);
    expect(emails.filter((e) => /^[a-z]+\.[a-z]+@/.test(e)).length / emails.length).toBeGreaterThan(0.5);
  });

  it('has starts in the last 90 days and last year, and updates spread over three years', () => {
    const starts = people.map((p) => mainRole(p)?.start_date).filter((d): d is string => !!d && d.length === 10);
    const recent = starts.filter((d) => daysBefore(d) < 90).length / people.length;
    const lastYear = starts.filter((d) => daysBefore(d) < 365).length / people.length;
    expect(recent).toBeGreaterThan(0.02);
    expect(lastYear).toBeGreaterThan(0.1);
    expect(starts.some((d) => daysBefore(d) > 10 * 365)).toBe(true);
    expect(people.filter((p) => (mainRole(p)?.start_date ?? '') > p.updated_at)).toEqual([]);
    expect(people.some((p) => daysBefore(p.updated_at) > 2 * 365)).toBe(true);
  });

  describe('planted cases', () => {
    const blocks = (): number[] => Array.from({ length: Math.ceil(20_000 / PLANT_BLOCK) }, (_, b) => b * PLANT_BLOCK);

    it('keeps them under 1% of rows', () => {
      const planted = people.filter((_, i) => plantAt(i) !== undefined).length;
      expect(planted / people.length).toBeLessThan(0.01);
    });

    it('pairs share a work email with updated_at in different months', () => {
      for (const b of blocks()) {
        const [a, c] = [people[b + 10]!, people[b + 11]!];
        expect(a.email).toBeTruthy();
        expect(c.email!.toLowerCase()).toBe(a.email!.toLowerCase());
        expect(c.person_id).not.toBe(a.person_id);
        expect(c.updated_at.slice(0, 7)).not.toBe(a.updated_at.slice(0, 7));
      }
      const counts = new Map<string, number>();
      for (const e of people.map((p) => p.email?.toLowerCase()).filter((e): e is string => !!e))
        counts.set(e, (counts.get(e) ?? 0) + 1);
      expect([...counts.values()].filter((n) => n > 1)).toHaveLength(blocks().length);
    });

    it('pairs share a profile slug', () => {
      const slug = (url: string): string => url.replace(/\/$/, '').split('/').pop()!;
      for (const b of blocks()) {
        const [a, c] = [people[b + 20]!, people[b + 21]!];
        expect(slug(c.profile_url!)).toBe(slug(a.profile_url!));
        expect(c.updated_at.slice(0, 7)).not.toBe(a.updated_at.slice(0, 7));
      }
    });

    it('groups of 3+ colleagues share a direct phone', () => {
      for (const b of blocks()) {
        const group = [30, 31, 32, 33].map((k) => people[b + k]!);
        expect(new Set(group.map((p) => mainRole(p)!.company_id)).size).toBe(1);
        expect(new Set(group.map((p) => lineDigits(p.direct_phone!))).size).toBe(1);
      }
    });

    it('have founders, people at public companies, new in role and one year in', () => {
      const byId = new Map(companies.map((c) => [c.company_id, c]));
      for (const b of blocks()) {
        expect(mainRole(people[b + 40]!)!.title).toMatch(/founder|owner|partner/i);
        const employer = byId.get(mainRole(people[b + 50]!)!.company_id!)!;
        expect(foldListValue('entity_type', employer.entity_type!)).toBe('public');
        const fresh = daysBefore(mainRole(people[b + 60]!)!.start_date!);
        expect(fresh).toBeGreaterThan(0);
        expect(fresh).toBeLessThan(90);
        const year = daysBefore(mainRole(people[b + 70]!)!.start_date!);
        expect(year).toBeGreaterThanOrEqual(365);
        expect(year).toBeLessThan(372);
      }
    });
  });
});

describe('generateDumps: CSV', () => {
  it('writes a header and rows that parse back to the JSONL records', async () => {
    const csv = await generate({ contacts: 1500, companies: 120, seed: 5, format: 'csv' });
    const jsonl = await generate({ contacts: 1500, companies: 120, seed: 5 });
    expect(csv.peopleFile.endsWith('people.csv')).toBe(true);
    const pairs: Array<[string, string, readonly string[]]> = [
      [csv.peopleFile, jsonl.peopleFile, PERSON_FIELDS],
      [csv.companiesFile, jsonl.companiesFile, COMPANY_FIELDS],
    ];
    for (const [csvFile, jsonFile, fields] of pairs) {
      const [header, ...rows] = parseCsv(await readFile(csvFile, 'utf8'));
      const records = await readJsonl<Record<string, unknown>>(jsonFile);
      expect(header).toEqual(fields);
      expect(rows).toHaveLength(records.length);
      // The cell text the record implies: empty when missing, JSON text for lists and records.
      const expected = (v: unknown): string =>
        v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
      const mismatches = rows.flatMap((cells, i) =>
        fields.flatMap((f, j) => (cells[j] === expected(records[i]![f]) ? [] : [`row ${i + 1} ${f}: ${cells[j]}`])),
      );
      expect(mismatches).toEqual([]);
      expect(rows.some((cells) => cells.some((c) => c.includes(',')))).toBe(true);
    }
  });
});

describe('title vocabulary', () => {
  it('covers every job function and seniority of the catalog', () => {
    const fns = new Set(TITLE_ENTRIES.map((t) => t.fn));
    for (const f of listValues('function')) expect(fns).toContain(f.slug);
    const levels = new Set<string>(TITLE_ENTRIES.map((t) => t.level));
    for (const s of listValues('seniority')) expect(levels).toContain(s.slug);
    expect(TITLE_ENTRIES.length).toBeGreaterThan(2000);
  });

  it('holds the titles people search for', () => {
    const titles = new Set(TITLE_ENTRIES.map((t) => t.title));
    for (const t of [
      'VP of Sales',
      'Head of Growth',
      'Senior Software Engineer',
      'Founder & CEO',
      'Account Executive',
      'Registered Nurse',
      'Chief Revenue Officer',
      'Marketing Intern',
    ]) {
      expect(titles).toContain(t);
    }
  });
});
