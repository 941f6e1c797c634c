import { expectError } from '../helpers/errors.js';
import { allRows, type Row } from '../helpers/rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Free routes reveal nothing that costs credits: with a known contact id, a free count narrowed by a comparison,
 * prefix or substring on a work email or phone recovered the value a character at a time (an email in about 145
 * calls). Contact-point filters now take presence and exact-set membership only, on every route and face.
 */

let app: TestApp;
let key: string;
let target: Row;
beforeAll(async () => {
  app = await startTestApp({ contacts: 600, companies: 80, seed: 3 });
  key = (await app.createAccount('pro')).apiKey;
  target = (await allRows(app, 'contacts')).find((r) => r.work_email && r.mobile_phone)!;
});
afterAll(async () => app.close());

const countA = (where: unknown) =>
  app.request('POST', '/v1/contacts/count', {
    key,
    body: { filter: { where: { and: [{ field: 'id', op: 'eq', value: target.id }, where] } } },
  });
const countB = (whereSql: string) =>
  app.request('POST', '/api/v1/contacts/search/count', {
    key,
    body: { where_sql: `id = '${target.id}' AND ${whereSql}` },
  });

describe('contact points take presence and exact-set membership only', () => {
  it.each([
    ['work_email', 'gte', 'a'],
    ['work_email', 'lt', 'n'],
    ['work_email', 'contains', '@'],
    ['mobile_phone', 'gt', '+1'],
    ['direct_phone', 'contains', '5'],
    ['work_email', 'neq', 'x@y.com'],
    ['mobile_phone', 'not_in', ['+10000000000']],
  ])('family A where %s %s answers 422 filter.rejected', async (field, op, value) => {
    const res = await countA({ field, op, value });
    expectError(res, 422, 'filter.rejected');
    expect(res.body.error.hint).toMatch(/takes eq, in, exists/);
  });

  it.each([
    "work_email >= 'a'",
    "work_email LIKE 'a%'",
    "work_email ILIKE '%@%'",
    "mobile_phone > '+1'",
    "direct_phone LIKE '+4%'",
    "work_email <> 'x@y.com'",
  ])('family B where_sql %s answers 400 request.invalid', async (sql) => {
    const res = await countB(sql);
    expectError(res, 400, 'request.invalid');
    expect(res.body.error.field).toBe('where_sql');
  });

  it('the extraction of an email one character at a time stops at its first call', async () => {
    // The attack: grow a known prefix while the count stays 1.
    const first = await countA({ field: 'work_email', op: 'gte', value: target.work_email.slice(0, 1) });
    expect(first.status).toBe(422);
    const prefix = await countB(`work_email LIKE '${target.work_email.slice(0, 1)}%'`);
    expect(prefix.status).toBe(400);
  });

  it('presence and exact membership still count, in both families and in export counts', async () => {
    expect((await countA({ field: 'work_email', op: 'exists' })).body.data.count).toBe(1);
    expect((await countA({ field: 'work_email', op: 'eq', value: target.work_email })).body.data.count).toBe(1);
    expect((await countA({ field: 'mobile_phone', op: 'in', value: [target.mobile_phone] })).body.data.count).toBe(1);
    expect((await countB(`work_email = '${target.work_email}'`)).body.count).toBe(1);
    expect((await countB('mobile_phone IS NOT NULL')).body.count).toBe(1);
    const exp = await app.request('POST', '/v1/exports', {
      key,
      body: { filter: { where: { field: 'work_email', op: 'gte', value: 'a' } }, max_rows: 1 },
    });
    expectError(exp, 422, 'filter.rejected');
  });

  it('the schema route says so in its notes and its column operators', async () => {
    const schema = await app.request('GET', '/v1/contacts/schema', { key });
    expect(schema.body.data.notes.join(' ')).toMatch(/Contact points \(work_email, mobile_phone, direct_phone\)/);
  });
});
