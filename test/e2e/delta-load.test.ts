import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { loadRelease } from '../../loaders/load/index.js';
import { seedRelease } from '../../loaders/seed.js';
import { ensureSecret, loadConfig } from '../../src/config.js';
import { publicColumns } from '../../src/domain/catalog/index.js';
import type { IRNode } from '../../src/domain/query/ir.js';
import { countBits } from '../../src/engine/duckdb/bitmap-index/bitset.js';
import { indexFile } from '../../src/engine/duckdb/bitmap-index/format.js';
import { BitmapIndex } from '../../src/engine/duckdb/bitmap-index/reader.js';
import { openDuckDBEngine } from '../../src/engine/duckdb/duckdb-engine.js';
import { readCurrent, releaseFile } from '../../src/engine/duckdb/release-store.js';
import { describeReleases, rollbackRelease } from '../../src/engine/duckdb/releases.js';
import { openState } from '../../src/services.js';
import { cds, runCds, startChildServer } from '../helpers/child-server.js';

/**
 * `cds load --delta` (loaders/load/delta.ts): the release a delta builds is exactly the release a full load of the
 * merged dumps builds, every column of every row; a killed delta leaves the serving release serving; bad input
 * answers exit 2 (1 for a missing dump file, as a full load).
 */

const AS_OF = new Date('2026-11-01T00:00:00Z');
type Rec = Record<string, unknown> & { person_id?: string; company_id?: string };

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'cds-delta-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const readJsonl = (file: string): Rec[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Rec);
const writeJsonl = (file: string, rows: readonly Rec[]): string => {
  writeFileSync(file, rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
  return file;
};

async function withDb<T>(fn: (q: (sql: string) => Promise<Record<string, unknown>[]>) => Promise<T>): Promise<T> {
  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  try {
    return await fn(async (sql) => (await conn.runAndReadAll(sql)).getRowObjects() as Record<string, unknown>[]);
  } finally {
    conn.closeSync();
    inst.closeSync();
  }
}

const servingFile = async (dataDir: string): Promise<string> => releaseFile(dataDir, (await readCurrent(dataDir))!.id);

type Q = (sql: string) => Promise<Record<string, unknown>[]>;

/**
 * Rows of a table in both attached releases `d` (the delta's) and `f` (the full load's) that the other lacks: every
 * column compared, and `sort_key` too when `positions` (a rebuilt delta numbers its rows as a full load does; a patched
 * one keeps its parent's positions, checked by keptPositions).
 */
async function differing(q: Q, table: string, positions: boolean): Promise<{ table: string; a: number; b: number }> {
  const cols = table === 'role_refs' || positions ? '*' : '* EXCLUDE (sort_key)';
  const [diff] = await q(
    `SELECT (SELECT count(*) FROM (SELECT ${cols} FROM d.${table} EXCEPT ALL SELECT ${cols} FROM f.${table})) AS a,
            (SELECT count(*) FROM (SELECT ${cols} FROM f.${table} EXCEPT ALL SELECT ${cols} FROM d.${table})) AS b`,
  );
  return { table, a: Number(diff!.a), b: Number(diff!.b) };
}

/**
 * A patched delta's positions, against its parent attached as `p`: a row the parent holds keeps its sort_key, new
 * rows follow the parent's last in id order, and no two rows share one.
 */
async function keptPositions(q: Q, table: string): Promise<void> {
  const [moved] = await q(
    `SELECT count(*) AS n FROM d.${table} d JOIN p.${table} p ON p.id = d.id WHERE p.sort_key <> d.sort_key`,
  );
  expect({ table, moved: Number(moved!.n) }).toEqual({ table, moved: 0 });
  const added = await q(
    `SELECT d.id, d.sort_key FROM d.${table} d WHERE d.id NOT IN (SELECT id FROM p.${table}) ORDER BY d.sort_key`,
  );
  const [top] = await q(`SELECT max(sort_key) AS m, count(DISTINCT sort_key) AS k, count(*) AS n FROM d.${table}`);
  const [last] = await q(`SELECT max(sort_key) AS m FROM p.${table}`);
  expect(added.map((r) => Number(r.sort_key))).toEqual(added.map((_, i) => Number(last!.m) + i + 1));
  expect(added.map((r) => r.id)).toEqual(added.map((r) => r.id).sort());
  expect(Number(top!.k)).toBe(Number(top!.n));
}

it.each([
  ['patched', []],
  ['rebuilt (--rebuild)', ['--rebuild']],
])(
  'a delta that changes a title, a company size and deletes a person, %s, holds exactly the full load of the merged dumps',
  async (_how, flags) => {
    const rebuilt = flags.length > 0;
    const baseDir = join(root, `base-${rebuilt ? 'rebuilt' : 'patched'}`);
    const seeded = await seedRelease({ dataDir: baseDir, contacts: 1500, companies: 120, seed: 21, asOf: AS_OF });
    const people = readJsonl(seeded.generate.peopleFile);
    const companies = readJsonl(seeded.generate.companiesFile);

    // The company with the most contacts in the base release, independent of the loader's code paths.
    const baseFile = await servingFile(baseDir);
    const [big] = await withDb(async (q) => {
      await q(`ATTACH '${baseFile}' AS b (READ_ONLY)`);
      return q(
        `SELECT company_id, count(*) AS n, any_value(company_size) AS size FROM b.contacts
       WHERE company_id IS NOT NULL GROUP BY company_id ORDER BY n DESC, company_id LIMIT 1`,
      );
    });
    const bigId = String(big!.company_id);
    expect(Number(big!.n)).toBeGreaterThan(1);
    const oldCompany = companies.find((c) => c.company_id === bigId)!;
    const newCount = Number(oldCompany.employee_count ?? 0) > 5000 ? 7 : 25_000;
    const changedCompany = { ...oldCompany, employee_count: newCount };

    const retitled = people.find((p) => (p.roles as unknown[] | undefined)?.length === 1)!;
    const roles = (retitled.roles as Rec[]).map((r) => ({ ...r, title: 'Chief Delta Officer' }));
    const changedPerson = { ...retitled, roles };
    const added: Rec = { ...people[3]!, person_id: 'per_deltaadded01', email: 'added.person@delta-example.com' };
    const deleted = people.find((p) => p.person_id !== retitled.person_id && p.person_id !== people[3]!.person_id)!;

    const deltaPeople = writeJsonl(join(root, 'delta-people.jsonl'), [changedPerson, added]);
    const deltaCompanies = writeJsonl(join(root, 'delta-companies.jsonl'), [changedCompany]);
    const deletes = join(root, 'deletes.txt');
    writeFileSync(deletes, `${deleted.person_id}\n\n{"person_id":"per_notthere","reason":"gdpr"}\n`);

    const reportFile = join(root, 'delta-report.json');
    const res = await runCds([
      'load',
      '--data',
      baseDir,
      '--delta',
      '--people',
      deltaPeople,
      '--companies',
      deltaCompanies,
      '--deletes',
      deletes,
      '--report',
      reportFile,
      ...flags,
    ]);
    expect(res.err).not.toMatch(/cds load:/);
    expect(res.code).toBe(0);
    const parentId = seeded.load.releaseId;
    expect(JSON.parse(res.out)).toMatchObject({
      contacts: seeded.load.contacts,
      companies: seeded.load.companies,
      delta: {
        parent: parentId,
        patched: !rebuilt,
        people: { replaced: 1, added: 1 },
        companies: { replaced: 1, added: 0 },
        deleted: 1,
        not_found: 1,
      },
    });
    expect(JSON.parse(readFileSync(reportFile, 'utf8'))).toMatchObject({
      delta: { parent: parentId, people: { replaced: 1, added: 1 }, deleted: 1, not_found: 1 },
    });

    // The reference: a full load of the merged dumps, with the base's reference time.
    const merged = people
      .filter((p) => p.person_id !== deleted.person_id)
      .map((p) => (p.person_id === retitled.person_id ? changedPerson : p));
    merged.push(added);
    const fullDir = join(root, `full-${rebuilt ? 'rebuilt' : 'patched'}`);
    await loadRelease({
      dataDir: fullDir,
      peopleFile: writeJsonl(join(root, 'merged-people.jsonl'), merged),
      companiesFile: writeJsonl(
        join(root, 'merged-companies.jsonl'),
        companies.map((c) => (c.company_id === bigId ? changedCompany : c)),
      ),
      asOf: AS_OF,
    });

    const deltaFile = await servingFile(baseDir);
    await withDb(async (q) => {
      await q(`ATTACH '${deltaFile}' AS d (READ_ONLY)`);
      await q(`ATTACH '${await servingFile(fullDir)}' AS f (READ_ONLY)`);
      for (const table of ['contacts', 'companies', 'role_refs']) {
        expect(await differing(q, table, rebuilt)).toEqual({ table, a: 0, b: 0 });
        const [n] = await q(`SELECT (SELECT count(*) FROM d.${table}) AS d, (SELECT count(*) FROM f.${table}) AS f`);
        expect(Number(n!.d)).toBe(Number(n!.f));
      }
      // A patch drops the contacts' lookup indexes (point reads then go through the point store's key tables).
      const [ix] = await q(
        "SELECT count(*) AS n FROM duckdb_indexes() WHERE database_name = 'd' AND table_name = 'contacts'",
      );
      expect(Number(ix!.n)).toBe(rebuilt ? 4 : 0);
      if (!rebuilt) {
        await q(`ATTACH '${baseFile}' AS p (READ_ONLY)`);
        for (const table of ['contacts', 'companies']) await keptPositions(q, table);
      }
      // What changed, read back: the title, the company's size on every one of its contacts, the deletion.
      const [t] = await q(`SELECT title FROM d.contacts WHERE id = '${retitled.person_id}'`);
      expect(t!.title).toBe('Chief Delta Officer');
      const sizes = await q(`SELECT DISTINCT company_size FROM d.contacts WHERE company_id = '${bigId}'`);
      expect(sizes).toHaveLength(1);
      expect(sizes[0]!.company_size).not.toBe(big!.size);
      const [c] = await q(`SELECT headcount_band, employee_count FROM d.companies WHERE id = '${bigId}'`);
      expect(Number(c!.employee_count)).toBe(newCount);
      expect(sizes[0]!.company_size).toBe(c!.headcount_band);
      expect(await q(`SELECT id FROM d.contacts WHERE id = '${deleted.person_id}'`)).toHaveLength(0);
    });

    // Point reads of every public column (beyond the point store's cards): a patched release has no DuckDB index on
    // the lookup columns, and finds those rows through the point store's key tables instead; the answers are the
    // full load's.
    const emails = merged
      .map((p) => (p as Rec).email)
      .flatMap((e) => (typeof e === 'string' ? [e.toLowerCase()] : []))
      .slice(0, 40);
    const lookups: IRNode[] = [
      { field: 'work_email', op: 'in', value: [...emails, 'nobody@delta-example.com'] },
      { field: 'work_email', op: 'eq', value: 'added.person@delta-example.com' },
    ];
    const columns = publicColumns('contact').map((c) => c.name);
    const engines = [
      await openDuckDBEngine({ dataDir: baseDir, poolSize: 1, threads: 1, pointReaders: 1 }),
      await openDuckDBEngine({ dataDir: fullDir, poolSize: 1, threads: 1, pointReaders: 1 }),
    ];
    try {
      for (const where of lookups) {
        const req = { page: { columns, limit: 100, afterSortKey: null, budgetMs: 30_000 } };
        const [d, f] = await Promise.all(engines.map((e) => e.query('contact', where, req)));
        const plain = (rows: Record<string, unknown>[]) =>
          rows.map(({ sort_key: _k, ...rest }) => JSON.stringify(rest)).sort();
        expect(d!.rows.length).toBeGreaterThan(0);
        expect(plain(d!.rows)).toEqual(plain(f!.rows));
      }
    } finally {
      for (const e of engines) await e.close();
    }

    const listed = await describeReleases(baseDir);
    expect(listed.map((r) => [r.kind, r.parent, r.serving])).toEqual([
      ['full', null, false],
      ['delta', parentId, true],
    ]);
    const list = await runCds(['releases', 'list', '--data', baseDir]);
    expect(list.out).toMatch(/"kind":"delta","parent":"r/);
  },
  240_000,
);

it.each([
  ['while it copies the serving rows', 'base'],
  ['while it writes the point store', 'point store'],
])(
  'a delta killed %s leaves the serving release serving and unchanged',
  async (_when, phase) => {
    const dir = join(root, `killed-${phase.replace(' ', '-')}`);
    const seeded = await seedRelease({ dataDir: dir, contacts: 3000, companies: 200, seed: 5, asOf: AS_OF });
    const more = await seedRelease({
      dataDir: join(root, `more-${phase.replace(' ', '-')}`),
      contacts: 6000,
      companies: 200,
      seed: 6,
      asOf: AS_OF,
    });
    const before = (await readCurrent(dir))!;
    const digest = (file: string) =>
      withDb(async (q) => {
        await q(`ATTACH '${file}' AS r (READ_ONLY)`);
        return q('SELECT (SELECT count(*) FROM r.contacts) AS n, (SELECT sum(hash(c)) FROM r.contacts c) AS h');
      });
    const was = await digest(releaseFile(dir, before.id));
    const child = cds(['load', '--data', dir, '--delta', '--people', more.generate.peopleFile]);
    let err = '';
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    await new Promise<void>((resolve, reject) => {
      child.stderr!.on('data', (b: Buffer) => {
        err += b.toString();
        if (new RegExp(`^${phase} `, 'm').test(err)) resolve();
      });
      child.once('exit', (code) =>
        reject(new Error(`delta ended (${code}) before it could be killed: ${err.slice(-400)}`)),
      );
    });
    child.kill('SIGKILL');
    await exited;
    expect((await readCurrent(dir))!.id).toBe(before.id);
    expect((await describeReleases(dir)).map((r) => r.id)).toEqual([seeded.load.releaseId]);
    expect(await digest(releaseFile(dir, before.id))).toEqual(was);
    // The next delta sweeps what the killed one left and publishes.
    const again = await runCds(['load', '--data', dir, '--delta', '--people', more.generate.peopleFile]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out).delta.parent).toBe(before.id);
  },
  240_000,
);

it('a delta over a release whose index is missing or another release builds its index in full', async () => {
  const dir = join(root, 'no-index');
  const seeded = await seedRelease({ dataDir: dir, contacts: 600, companies: 60, seed: 31, asOf: AS_OF });
  const people = readJsonl(seeded.generate.peopleFile);
  // The seeded release's index, kept to stand in for the next release's as another release's index.
  const foreign = readFileSync(indexFile(releaseFile(dir, seeded.load.releaseId)));
  for (const damage of ['missing', 'foreign'] as const) {
    const index = indexFile(releaseFile(dir, (await readCurrent(dir))!.id));
    if (damage === 'missing') rmSync(index);
    else writeFileSync(index, foreign);
    const delta = writeJsonl(join(root, `no-index-${damage}.jsonl`), [
      { ...people[1]!, person_id: `per_noindex${damage}` },
    ]);
    const res = await runCds(['load', '--data', dir, '--delta', '--people', delta]);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.out)).toMatchObject({
      delta: { patched: true },
      contacts: 600 + (damage === 'missing' ? 1 : 2),
    });
    expect(res.err).toMatch(/index cannot be patched .*building it in full/);
    const cur = (await readCurrent(dir))!;
    const opened = BitmapIndex.open(indexFile(releaseFile(dir, cur.id)), cur);
    expect(opened.reason).toBeUndefined();
    expect(countBits(opened.index!.entity('contact').all())).toBe(cur.contacts);
    opened.index!.close();
  }
}, 240_000);

it('bad delta input answers the documented exit codes', async () => {
  const dir = join(root, 'bad');
  const people = writeJsonl(join(root, 'bad-people.jsonl'), [
    { person_id: 'per_one', full_name: 'One Person', updated_at: '2026-01-01' },
  ]);
  const noServing = await runCds(['load', '--data', join(root, 'empty'), '--delta', '--people', people]);
  expect(noServing.code).toBe(2);
  expect(noServing.err).toMatch(/no release serves .*run a full load first/);

  await seedRelease({ dataDir: dir, contacts: 200, companies: 30, seed: 9, asOf: AS_OF });
  const missing = await runCds(['load', '--data', dir, '--delta', '--people', join(root, 'nope.jsonl')]);
  expect(missing.code).toBe(1);
  expect(missing.err).toMatch(/no such dump file/);
  expect((await runCds(['load', '--data', dir, '--delta'])).code).toBe(2);
  // Deltas run on Elasticsearch too; without a cluster to reach the setting is missing (exit 2).
  const es = await runCds(['load', '--data', dir, '--delta', '--people', people, '--engine', 'elasticsearch']);
  expect(es.code).toBe(2);
  expect(es.err).toMatch(/needs ELASTICSEARCH_URL/);
  expect((await runCds(['load', '--data', dir, '--people', people, '--deletes', people])).code).toBe(2);

  const badDeletes = join(root, 'bad-deletes.txt');
  writeFileSync(badDeletes, 'per_one\n{"id":"per_two"}\n');
  const bad = await runCds(['load', '--data', dir, '--delta', '--people', people, '--deletes', badDeletes]);
  expect(bad.code).toBe(2);
  expect(bad.err).toMatch(/bad-deletes\.txt line 2: expected a person id/);
  expect((await describeReleases(dir)).map((r) => r.kind)).toEqual(['full']);
}, 240_000);

it('a company renamed in a delta is refused unless its contacts are restated, then matches the full load', async () => {
  const dir = join(root, 'renamed');
  const seeded = await seedRelease({ dataDir: dir, contacts: 800, companies: 60, seed: 12, asOf: AS_OF });
  const people = readJsonl(seeded.generate.peopleFile);
  const companies = readJsonl(seeded.generate.companiesFile);
  // A company some people hold a role at, renamed: its name is in their own rows (company, experience).
  const holders = (id: unknown) =>
    people.filter((p) => ((p.roles as Rec[] | undefined) ?? []).some((r) => r.company_id === id));
  const target = companies.find((c) => holders(c.company_id).length >= 2)!;
  const renamed = { ...target, name: 'Renamed Delta Holdings' };
  const companiesFile = writeJsonl(join(root, 'renamed-companies.jsonl'), [renamed]);
  const someone = writeJsonl(join(root, 'renamed-nobody.jsonl'), [people[0]!]);

  const refused = await runCds(['load', '--data', dir, '--delta', '--people', someone, '--companies', companiesFile]);
  expect(refused.code).toBe(2);
  expect(refused.err).toContain(String(target.company_id));
  expect((await describeReleases(dir)).map((r) => r.kind)).toEqual(['full']);

  const restated = writeJsonl(join(root, 'renamed-people.jsonl'), holders(target.company_id));
  const ok = await runCds(['load', '--data', dir, '--delta', '--people', restated, '--companies', companiesFile]);
  expect(ok.err).not.toMatch(/cds load:/);
  expect(ok.code).toBe(0);
  const fullDir = join(root, 'renamed-full');
  await loadRelease({
    dataDir: fullDir,
    peopleFile: seeded.generate.peopleFile,
    companiesFile: writeJsonl(
      join(root, 'renamed-merged-companies.jsonl'),
      companies.map((c) => (c.company_id === target.company_id ? renamed : c)),
    ),
    asOf: AS_OF,
  });
  const deltaFile = await servingFile(dir);
  await withDb(async (q) => {
    await q(`ATTACH '${deltaFile}' AS d (READ_ONLY)`);
    await q(`ATTACH '${await servingFile(fullDir)}' AS f (READ_ONLY)`);
    for (const table of ['contacts', 'companies']) {
      expect(await differing(q, table, false)).toEqual({ table, a: 0, b: 0 });
    }
    const names = await q(`SELECT DISTINCT company FROM d.contacts WHERE company_id = '${target.company_id}'`);
    expect(names.map((r) => r.company)).toEqual(['Renamed Delta Holdings']);
  });
}, 240_000);

it('applies the opt-out list to every row of a delta, the serving release people included', async () => {
  const dir = join(root, 'opt-out');
  const seeded = await seedRelease({ dataDir: dir, contacts: 400, companies: 40, seed: 14, asOf: AS_OF });
  const people = readJsonl(seeded.generate.peopleFile);
  const config = loadConfig(['--data', dir]);
  const state = await openState(config, ensureSecret(config));
  // One person of the serving release and one of the delta opted out since the full load.
  await state.addOptOuts(
    [
      { type: 'id', value: String(people[5]!.person_id) },
      { type: 'id', value: 'per_deltaoptedout' },
    ],
    { action: 'add', actor: 'cli:test' },
    new Date(),
  );
  await state.close();
  const delta = writeJsonl(join(root, 'opt-out-people.jsonl'), [
    { ...people[6]!, person_id: 'per_deltaoptedout' },
    { ...people[7]!, person_id: 'per_deltakept' },
  ]);
  const res = await runCds(['load', '--data', dir, '--delta', '--people', delta]);
  expect(res.code).toBe(0);
  expect(JSON.parse(res.out)).toMatchObject({
    contacts: seeded.load.contacts,
    suppressed: { people: 2, by_type: { id: 2 } },
  });
  await withDb(async (q) => {
    await q(`ATTACH '${await servingFile(dir)}' AS d (READ_ONLY)`);
    const ids = await q(
      `SELECT id FROM d.contacts WHERE id IN ('${people[5]!.person_id}', 'per_deltaoptedout', 'per_deltakept')`,
    );
    expect(ids.map((r) => r.id)).toEqual(['per_deltakept']);
  });
}, 240_000);

it('a company first added in a delta that serving contacts named while unknown is refused until they are restated', async () => {
  const dir = join(root, 'new-company');
  const gen = await seedRelease({
    dataDir: join(root, 'new-company-source'),
    contacts: 500,
    companies: 50,
    seed: 31,
    asOf: AS_OF,
  });
  const people = readJsonl(gen.generate.peopleFile);
  const companies = readJsonl(gen.generate.companiesFile);
  // Two people name companies the dumps do not hold: one arrives in the delta, the other never does.
  const withRole = (p: Rec, id: string, name: string): Rec => ({
    ...p,
    roles: [{ title: 'Head of Growth', company_id: id, company_name: name, is_primary: true }],
  });
  const a = withRole(people[10]!, 'com_deltanewco', 'Newco Raw Name');
  const b = withRole(people[11]!, 'com_neverknown', 'Ghost Inc');
  const basePeople = people.map((p) => (p === people[10] ? a : p === people[11] ? b : p));
  const peopleFile = writeJsonl(join(root, 'new-company-people.jsonl'), basePeople);
  await loadRelease({ dataDir: dir, peopleFile, companiesFile: gen.generate.companiesFile, asOf: AS_OF });

  const newco = {
    ...companies[0]!,
    company_id: 'com_deltanewco',
    name: 'Newco Proper',
    website: 'https://newco.example',
  };
  const companiesFile = writeJsonl(join(root, 'new-company-delta-companies.jsonl'), [newco]);
  const unrelated = writeJsonl(join(root, 'new-company-unrelated.jsonl'), [people[0]!]);
  const refused = await runCds(['load', '--data', dir, '--delta', '--people', unrelated, '--companies', companiesFile]);
  expect(refused.code).toBe(2);
  expect(refused.err).toMatch(/adds companies .* com_deltanewco \(1 contacts\)/);

  const restated = writeJsonl(join(root, 'new-company-restated.jsonl'), [a]);
  const ok = await runCds(['load', '--data', dir, '--delta', '--people', restated, '--companies', companiesFile]);
  expect(ok.err).not.toMatch(/cds load:/);
  expect(ok.code).toBe(0);
  const fullDir = join(root, 'new-company-full');
  await loadRelease({
    dataDir: fullDir,
    peopleFile,
    companiesFile: writeJsonl(join(root, 'new-company-merged.jsonl'), [...companies, newco]),
    asOf: AS_OF,
  });
  const deltaFile = await servingFile(dir);
  await withDb(async (q) => {
    await q(`ATTACH '${deltaFile}' AS d (READ_ONLY)`);
    await q(`ATTACH '${await servingFile(fullDir)}' AS f (READ_ONLY)`);
    for (const table of ['contacts', 'companies', 'role_refs']) {
      expect(await differing(q, table, false)).toEqual({ table, a: 0, b: 0 });
    }
    const [row] = await q(`SELECT company, company_id FROM d.contacts WHERE id = '${a.person_id}'`);
    expect(row).toEqual({ company: 'Newco Proper', company_id: 'com_deltanewco' });
    expect(await q('SELECT person_id, company_id FROM d.role_refs')).toEqual([
      { person_id: b.person_id, company_id: 'com_neverknown' },
    ]);
  });
  // A delta over the delta release: the unresolved role it carried over still guards the next new company.
  const ghost = { ...companies[1]!, company_id: 'com_neverknown', name: 'Ghost Inc' };
  const next = await runCds([
    'load',
    '--data',
    dir,
    '--delta',
    '--people',
    unrelated,
    '--companies',
    writeJsonl(join(root, 'new-company-ghost.jsonl'), [ghost]),
  ]);
  expect(next.code).toBe(2);
  expect(next.err).toMatch(/com_neverknown \(1 contacts\)/);
}, 240_000);

it('a delta runs beside a server serving its parent, which then serves the delta', async () => {
  const dir = join(root, 'served');
  const seeded = await seedRelease({ dataDir: dir, contacts: 300, companies: 30, seed: 17, asOf: AS_OF });
  const server = await startChildServer(dir);
  try {
    const health = async () =>
      ((await (await fetch(`${server.url}/v1/health`)).json()) as { data: { engine: { release: string } } }).data.engine
        .release;
    expect(await health()).toBe(seeded.load.releaseId);
    const people = readJsonl(seeded.generate.peopleFile);
    const delta = writeJsonl(join(root, 'served-people.jsonl'), [{ ...people[1]!, full_name: 'Served Delta' }]);
    const res = await runCds(['load', '--data', dir, '--delta', '--people', delta]);
    expect(res.code).toBe(0);
    const id = JSON.parse(res.out).release_id as string;
    const deadline = Date.now() + 10_000;
    while ((await health()) !== id && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await health()).toBe(id);
  } finally {
    await server.kill('SIGTERM');
  }
}, 240_000);

it('a delta whose parent stops serving while it runs (a rollback meanwhile) is refused at the swap', async () => {
  const dir = join(root, 'moved');
  const first = await seedRelease({ dataDir: dir, contacts: 500, companies: 50, seed: 40, asOf: AS_OF });
  const second = await seedRelease({ dataDir: dir, contacts: 6000, companies: 400, seed: 41, asOf: AS_OF });
  const people = readJsonl(second.generate.peopleFile);
  const delta = writeJsonl(join(root, 'moved-people.jsonl'), people.slice(0, 50));
  const child = cds(['load', '--data', dir, '--delta', '--people', delta]);
  let err = '';
  const exited = new Promise<number | null>((r) => child.once('exit', r));
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (b: Buffer) => {
      err += b.toString();
      if (/^base /m.test(err)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`delta ended (${code}) before the rollback: ${err.slice(-400)}`)));
  });
  // In process (no process start-up), while the delta copies the serving rows and builds.
  await rollbackRelease(dir, first.load.releaseId);
  expect(await exited).toBe(2);
  expect(err).toMatch(new RegExp(`release ${first.load.releaseId} serves now, not ${second.load.releaseId}`));
  expect((await readCurrent(dir))!.id).toBe(first.load.releaseId);
  expect((await describeReleases(dir)).map((r) => r.id)).toEqual([first.load.releaseId, second.load.releaseId]);
}, 240_000);
