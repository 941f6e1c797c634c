import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCds } from '../helpers/child-server.js';
import { allRows, type Row } from '../helpers/rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Opt-outs applied (issue 17) over real HTTP: a person opted out by any identifier type leaves every read within a
 * second (counts drop by exactly one, search, enrichment and export leave them out and charge nothing for them),
 * comes back at once when the opt-out is removed, and a reload of the same dumps while they are listed leaves them
 * out of the new release.
 */
const TOKEN = 'operator-secret-token-0123456789abcdef';
const op = { Authorization: `Bearer ${TOKEN}` };
const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

let app: TestApp;
let key: string;
let people: Row[];
beforeAll(async () => {
  app = await startTestApp({ contacts: 300, companies: 40, seed: 9, env: { CDS_ADMIN_TOKEN: TOKEN } });
  key = (await app.createAccount('pro')).apiKey;
  people = (await allRows(app, 'contacts')).filter((r) => r.work_email && r.mobile_phone && r.network_slug);
}, 120_000);
afterAll(async () => app.close());

const optOut = (type: string, value: string) =>
  app.request('POST', '/v1/admin/optouts', { headers: op, body: { type, values: [value] } });
const optIn = (type: string, value: string) =>
  app.request('POST', '/v1/admin/optouts/remove', { headers: op, body: { type, values: [value] } });
const total = async () =>
  (await app.request('POST', '/v1/contacts/count', { key, body: { filter: {} } })).body.data.count as number;
const byId = async (id: string) =>
  (
    await app.request('POST', '/v1/contacts/search', {
      key,
      body: { filter: { where: { field: 'id', op: 'eq', value: id } } },
    })
  ).body.data as Row[];
const used = async () => (await app.request('GET', '/v1/credits', { key })).body.data.contact.day.used as number;

async function within(ms: number, pred: () => Promise<boolean>, what: string): Promise<number> {
  const started = Date.now();
  while (!(await pred())) {
    if (Date.now() - started > ms) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return Date.now() - started;
}

describe('an opted-out person leaves every read within a second', () => {
  const cases: Array<[string, (p: Row) => string]> = [
    ['id', (p) => String(p.id)],
    ['email', (p) => String(p.work_email).toUpperCase()],
    ['phone', (p) => String(p.mobile_phone)],
    ['url', (p) => `https://network.com/in/${String(p.network_slug)}`],
    ['sha256', (p) => sha(String(p.work_email).toLowerCase())],
  ];
  it.each(cases.map(([type, of], i) => [type, of, i] as const))(
    'by %s: count drops by exactly one, search leaves them out; removal brings them back',
    async (type, of, i) => {
      const person = people[i]!;
      const before = await total();
      expect(await byId(String(person.id))).toHaveLength(1);
      expect((await optOut(type, of(person))).status).toBe(200);
      const took = await within(1000, async () => (await total()) === before - 1, 'the count to drop');
      expect(took).toBeLessThanOrEqual(1000);
      expect(await byId(String(person.id))).toEqual([]);
      expect((await optIn(type, of(person))).status).toBe(200);
      await within(1000, async () => (await total()) === before, 'the count to come back');
      expect(await byId(String(person.id))).toHaveLength(1);
    },
  );
});

it('enrichment and export leave an opted-out person out and charge nothing for them', async () => {
  const person = people[10]!;
  const other = people[11]!;
  expect((await optOut('email', String(person.work_email))).status).toBe(200);
  await within(1000, async () => (await byId(String(person.id))).length === 0, 'the opt-out to apply');

  const before = await used();
  const enriched = await app.request('POST', '/v1/enrichments', {
    key,
    body: { inputs: [String(person.work_email), String(other.work_email)] },
  });
  expect(enriched.status).toBe(200);
  const found = JSON.stringify(enriched.body.data);
  expect(found).not.toContain(String(person.id));
  expect(found).toContain(String(other.id));
  expect((await used()) - before).toBe(1);

  const started = await app.request('POST', '/v1/exports', { key, body: { filter: {}, columns: ['name'] } });
  expect(started.status).toBe(202);
  const id = started.body.data.export_id as string;
  let done: { status: string; rows_exported: number; url: string } | undefined;
  await within(
    30_000,
    async () => {
      const r = await app.request('GET', `/v1/exports/${id}`, { key });
      done = r.body.data;
      return done!.status === 'completed';
    },
    'the export to complete',
  );
  const csv = await (await fetch(done!.url)).text();
  expect(csv).not.toContain(String(person.id));
  expect(csv.trim().split('\n').length - 1).toBe(done!.rows_exported);
  expect(done!.rows_exported).toBe(await total());
  await optIn('email', String(person.work_email));
}, 60_000);

it('a reload of the same dumps while a person is listed leaves them out; removed, the next load brings them back', async () => {
  const person = people[20]!;
  expect((await optOut('id', String(person.id))).status).toBe(200);
  const dumps = join(app.dataDir, 'dumps');
  const folder = join(dumps, readdirSync(dumps)[0]!);
  const file = (stem: string) => join(folder, readdirSync(folder).find((f) => f.startsWith(`${stem}.`))!);
  const reload = () =>
    runCds(['load', '--data', app.dataDir, '--people', file('people'), '--companies', file('companies')]);
  const load = await reload();
  expect(load.code).toBe(0);
  // The new release serves (within a second) without the person, even once the opt-out is removed.
  const report = JSON.parse(load.out.trim().split('\n').pop()!);
  expect(report).toMatchObject({ contacts: 299, suppressed: { people: 1, by_type: { id: 1 } } });
  const release = report.release_id as string;
  await within(5000, async () => app.services.engine.release()?.id === release, 'the new release to serve');
  expect((await optIn('id', String(person.id))).status).toBe(200);
  await new Promise((r) => setTimeout(r, 1200));
  expect(await byId(String(person.id))).toEqual([]);
  // The next load, with the opt-out removed, holds them again.
  const again = await reload();
  expect(again.code).toBe(0);
  const next = JSON.parse(again.out.trim().split('\n').pop()!);
  expect(next).toMatchObject({ contacts: 300, suppressed: { people: 0 } });
  await within(5000, async () => app.services.engine.release()?.id === next.release_id, 'the next release to serve');
  expect(await byId(String(person.id))).toHaveLength(1);
}, 120_000);
