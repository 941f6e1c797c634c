import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AUDIENCES_MAX } from '../../src/operations/audiences/view.js';
import { runCds } from '../helpers/child-server.js';
import { expectError } from '../helpers/errors.js';
import { allRows, type Row } from '../helpers/rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Saved audiences over REST: create, list (cursor paging, newest first), get, patch, delete, count with history;
 * audience_id in count, search and export; tenancy, strict members, errors, limits, credits untouched.
 */

let app: TestApp;
let key: string;
let accountId: string;
let other: string;
let contacts: Row[];
beforeAll(async () => {
  app = await startTestApp({ contacts: 400, companies: 80 });
  ({ apiKey: key, accountId } = await app.createAccount('free'));
  other = (await app.createAccount('free')).apiKey;
  contacts = await allRows(app, 'contacts');
}, 60_000);
afterAll(async () => app.close());

const US_VPS = { countries: ['us'], seniority: ['vp'] };
const usVps = () => contacts.filter((c) => c.country === 'us' && c.seniority === 'vp').length;
const used = async (k = key) => (await app.request('GET', '/v1/credits', { key: k })).body.data.contact;

async function save(body: Record<string, unknown>, k = key) {
  return app.request('POST', '/v1/audiences', { key: k, body });
}

async function within(ms: number, pred: () => Promise<boolean>, what: string): Promise<void> {
  const started = Date.now();
  while (!(await pred())) {
    if (Date.now() - started > ms) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('saved audiences', () => {
  it('saves an audience (201) and reads it back; free', async () => {
    const before = await used();
    const res = await save({ name: '  US VPs ', filter: US_VPS, description: 'Vice presidents in the US' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'US VPs',
      description: 'Vice presidents in the US',
      filter: US_VPS,
      last_count: null,
      history: [],
    });
    expect(res.body.data.id).toMatch(/^aud_/);
    expect(res.body.data.created_at).toBe(res.body.data.updated_at);
    const got = await app.request('GET', `/v1/audiences/${res.body.data.id}`, { key });
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(res.body.data);
    expect(await used()).toEqual(before);
  });

  it('validates the filter exactly as count does (same codes), the name and unknown members', async () => {
    for (const filter of [{ countries: ['atlantis'] }, { no_such_key: 1 }, { where: { field: 'title', op: 'like' } }]) {
      const count = await app.request('POST', '/v1/contacts/count', { key, body: { filter } });
      const saved = await save({ name: 'x', filter });
      expect(count.status).toBeGreaterThanOrEqual(400);
      expect({ status: saved.status, code: saved.body.error.code }).toEqual({
        status: count.status,
        code: count.body.error.code,
      });
    }
    expectError(await save({ name: '   ', filter: {} }), 400, 'request.invalid');
    expectError(await save({ name: 'x'.repeat(101), filter: {} }), 400, 'request.invalid');
    expectError(await save({ filter: {} }), 400, 'request.invalid');
    expectError(await save({ name: 'x' }), 400, 'request.invalid');
    const unknown = await save({ name: 'x', filter: {}, colour: 'red' });
    expectError(unknown, 400, 'request.invalid');
    expect(JSON.stringify(unknown.body.error)).toContain('colour');
    expectError(await save({ name: 'x', filter: 'us' }), 400, 'request.invalid');
  });

  it('lists newest first with cursor paging; another account sees none of them and gets 404 for their ids', async () => {
    const { apiKey } = await app.createAccount('free');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      app.clock.set(new Date(Date.parse('2026-11-10T12:00:00.000Z') + i * 1000).toISOString());
      ids.push((await save({ name: `a${i}`, filter: { countries: ['de'] } }, apiKey)).body.data.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : '?limit=2';
      const page = await app.request('GET', `/v1/audiences${q}`, { key: apiKey });
      expect(page.status).toBe(200);
      expect(page.body.page.total).toBe(5);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.map((a: { id: string }) => a.id));
      cursor = page.body.page.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    expectError(await app.request('GET', '/v1/audiences?cursor=garbage', { key: apiKey }), 400, 'request.invalid');
    expectError(await app.request('GET', '/v1/audiences?limit=0', { key: apiKey }), 400, 'request.invalid');
    expectError(await app.request('GET', '/v1/audiences?sort=name', { key: apiKey }), 400, 'request.invalid');
    // Tenancy: another account's ids are unknown everywhere.
    const id = ids[0]!;
    expect((await app.request('GET', '/v1/audiences', { key: other })).body.data).toEqual([]);
    expectError(await app.request('GET', `/v1/audiences/${id}`, { key: other }), 404, 'audience.not_found');
    expectError(
      await app.request('PATCH', `/v1/audiences/${id}`, { key: other, body: { name: 'mine' } }),
      404,
      'audience.not_found',
    );
    expectError(await app.request('DELETE', `/v1/audiences/${id}`, { key: other }), 404, 'audience.not_found');
    expectError(
      await app.request('POST', `/v1/audiences/${id}/count`, { key: other, body: {} }),
      404,
      'audience.not_found',
    );
    expectError(
      await app.request('POST', '/v1/contacts/count', { key: other, body: { audience_id: id } }),
      404,
      'audience.not_found',
    );
    expectError(
      await app.request('POST', '/v1/contacts/search', { key: other, body: { audience_id: id } }),
      404,
      'audience.not_found',
    );
    expectError(
      await app.request('POST', '/v1/exports', { key: other, body: { audience_id: id } }),
      404,
      'audience.not_found',
    );
    expect((await app.request('GET', `/v1/audiences/${id}`, { key: apiKey })).body.data.name).toBe('a0');
  });

  it('audience_id stands for the filter in count, search and export; both or neither answer 400', async () => {
    const aud = (await save({ name: 'US VPs', filter: US_VPS })).body.data;
    const count = await app.request('POST', '/v1/contacts/count', { key, body: { audience_id: aud.id } });
    expect(count.status).toBe(200);
    expect(count.body.data.count).toBe(usVps());
    const direct = await app.request('POST', '/v1/contacts/search', { key, body: { filter: US_VPS, limit: 5 } });
    const byAudience = await app.request('POST', '/v1/contacts/search', {
      key,
      body: { audience_id: aud.id, limit: 5 },
    });
    expect(byAudience.status).toBe(200);
    expect(byAudience.body.data.map((r: Row) => r.id)).toEqual(direct.body.data.map((r: Row) => r.id));
    const both = await app.request('POST', '/v1/contacts/count', { key, body: { audience_id: aud.id, filter: {} } });
    expectError(both, 400, 'request.invalid');
    expect(both.body.error.field).toBe('audience_id');
    const neither = await app.request('POST', '/v1/contacts/count', { key, body: {} });
    expectError(neither, 400, 'request.invalid');
    expect(neither.body.error.message).toBe('filter is required.');
    expectError(
      await app.request('POST', '/v1/exports', { key, body: { audience_id: aud.id, filter: US_VPS } }),
      400,
      'request.invalid',
    );
    expectError(
      await app.request('POST', '/v1/contacts/count', { key, body: { audience_id: 'aud_nope' } }),
      404,
      'audience.not_found',
    );
    const exp = await app.request('POST', '/v1/exports', { key, body: { audience_id: aud.id, dry_run: true } });
    expect(exp.status).toBe(200);
    // The count by audience_id recorded the serving release's point.
    const after = (await app.request('GET', `/v1/audiences/${aud.id}`, { key })).body.data;
    expect(after.history).toEqual([
      { release: app.services.engine.release()!.id, count: usVps(), counted_at: expect.any(String) },
    ]);
    expect(after.last_count).toEqual(after.history[0]);
  });

  it('PATCH renames keeping the history; a new filter clears it; empty patch and bad members answer 400', async () => {
    const aud = (await save({ name: 'n', filter: US_VPS })).body.data;
    await app.request('POST', `/v1/audiences/${aud.id}/count`, { key, body: {} });
    const renamed = await app.request('PATCH', `/v1/audiences/${aud.id}`, {
      key,
      body: { name: 'renamed', description: 'notes' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'renamed', description: 'notes', filter: US_VPS });
    expect(renamed.body.data.history).toHaveLength(1);
    const same = await app.request('PATCH', `/v1/audiences/${aud.id}`, { key, body: { filter: US_VPS } });
    expect(same.body.data.history).toHaveLength(1);
    const refiltered = await app.request('PATCH', `/v1/audiences/${aud.id}`, {
      key,
      body: { filter: { countries: ['de'] }, description: null },
    });
    expect(refiltered.body.data).toMatchObject({ filter: { countries: ['de'] }, history: [], last_count: null });
    expect(refiltered.body.data.description).toBeNull();
    expectError(await app.request('PATCH', `/v1/audiences/${aud.id}`, { key, body: {} }), 400, 'request.invalid');
    expectError(
      await app.request('PATCH', `/v1/audiences/${aud.id}`, { key, body: { filter: { countries: ['atlantis'] } } }),
      400,
      'filter.unknown_value',
    );
    expectError(
      await app.request('PATCH', `/v1/audiences/${aud.id}`, { key, body: { owner: 'x' } }),
      400,
      'request.invalid',
    );
    const del = await app.request('DELETE', `/v1/audiences/${aud.id}`, { key });
    expect(del.status).toBe(200);
    expect(del.body.data).toEqual({ id: aud.id, deleted: true });
    expectError(await app.request('DELETE', `/v1/audiences/${aud.id}`, { key }), 404, 'audience.not_found');
    expectError(await app.request('GET', `/v1/audiences/${aud.id}`, { key }), 404, 'audience.not_found');
  });

  it(`refuses audience number ${AUDIENCES_MAX + 1} with 409 audiences.limit_reached`, async () => {
    const { apiKey, accountId: id } = await app.createAccount('free');
    // The first 199 straight into the store (the limit is what is under test, not 199 requests), the 200th over REST.
    for (let i = 0; i < AUDIENCES_MAX - 1; i++)
      await app.services.state.createAudience(
        id,
        { name: `a${i}`, description: null, filter: {}, now: new Date() },
        AUDIENCES_MAX,
      );
    expect((await save({ name: 'last', filter: {} }, apiKey)).status).toBe(201);
    const over = await save({ name: 'over', filter: {} }, apiKey);
    expectError(over, 409, 'audiences.limit_reached');
    expect(over.body.error.hint).toContain('DELETE /v1/audiences');
    expect((await app.request('GET', '/v1/audiences?limit=1', { key: apiKey })).body.page.total).toBe(AUDIENCES_MAX);
    expect(accountId).not.toBe(id);
  });

  it('records one point per release: counted again after a release switch, its history has two points', async () => {
    const aud = (await save({ name: 'history', filter: US_VPS })).body.data;
    const first = await app.request('POST', `/v1/audiences/${aud.id}/count`, { key, body: {} });
    expect(first.status).toBe(200);
    const r1 = app.services.engine.release()!.id;
    expect(first.body.data).toMatchObject({ count: usVps(), release: r1 });
    expect(first.body.data.audience.history).toEqual([{ release: r1, count: usVps(), counted_at: expect.any(String) }]);
    // Counted again on the same release: still one point (the latest).
    app.clock.set('2026-11-10T13:00:00.000Z');
    const again = await app.request('POST', '/v1/contacts/count', { key, body: { audience_id: aud.id } });
    expect(again.status).toBe(200);
    const one = (await app.request('GET', `/v1/audiences/${aud.id}`, { key })).body.data.history;
    expect(one).toEqual([{ release: r1, count: usVps(), counted_at: '2026-11-10T13:00:00.000Z' }]);
    // A second release of the same dumps serves; the next count adds its point.
    const dumps = join(app.dataDir, 'dumps');
    const folder = join(dumps, readdirSync(dumps)[0]!);
    const file = (stem: string) => join(folder, readdirSync(folder).find((f) => f.startsWith(`${stem}.`))!);
    const load = await runCds([
      'load',
      '--data',
      app.dataDir,
      '--people',
      file('people'),
      '--companies',
      file('companies'),
    ]);
    expect(load.code).toBe(0);
    const r2 = JSON.parse(load.out.trim().split('\n').pop()!).release_id as string;
    expect(r2).not.toBe(r1);
    await within(10_000, async () => app.services.engine.release()?.id === r2, 'the second release to serve');
    app.clock.set('2026-11-11T09:00:00.000Z');
    const second = await app.request('POST', `/v1/audiences/${aud.id}/count`, { key, body: {} });
    expect(second.body.data.release).toBe(r2);
    expect(second.body.data.audience.history).toEqual([
      { release: r1, count: usVps(), counted_at: '2026-11-10T13:00:00.000Z' },
      { release: r2, count: second.body.data.count, counted_at: '2026-11-11T09:00:00.000Z' },
    ]);
    expect(second.body.data.audience.last_count).toEqual(second.body.data.audience.history[1]);
    const listed = (await app.request('GET', '/v1/audiences', { key })).body.data.find(
      (a: { id: string }) => a.id === aud.id,
    );
    expect(listed.history).toHaveLength(2);
  }, 90_000);
});
