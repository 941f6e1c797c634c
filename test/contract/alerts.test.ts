import type { SignalKind } from '../../src/network-signals/port.js';
import { SimulatedNetwork } from '../../src/network-signals/simulated/simulated-network.js';
import { parseSignalTarget } from '../../src/network-signals/target.js';
import { tickAlerts } from '../../src/operations/network-signals/alert-runs.js';
import { expectError } from '../helpers/errors.js';
import { allSignals, type SignalsApp, startSignalsApp, waitAlertRun } from './signals-support.js';

const T0 = '2026-11-10T12:00:00.000Z';
let app: SignalsApp;
let net: SimulatedNetwork;
beforeAll(async () => {
  app = await startSignalsApp({ contacts: 1500, companies: 200, seed: 3, now: T0 });
  net = new SimulatedNetwork({
    host: app.config.networkHost,
    clock: app.clock,
    engine: app.services.engine,
    delayMs: 0,
  });
});
afterAll(async () => app.shutdown());
afterEach(async () => {
  app.clock.set(T0);
  // Every test starts with no alert due, so a tick runs only what the test created.
  for (const a of await app.services.state.dueAlerts(new Date('2100-01-01T00:00:00Z'), 10_000))
    await app.services.state.deleteAlert(a.id, app.clock.now());
});

async function findTarget(kind: SignalKind, path: string, ok: (n: number) => boolean): Promise<string> {
  for (let i = 0; i < 500; i++) {
    const url = `https://network.com/${path}/alert-target-${i}`;
    if (ok(await net.estimate(parseSignalTarget(kind, url, 'network.com')))) return url;
  }
  throw new Error('no target fits');
}
const create = (key: string, body: unknown) => app.request('POST', '/v1/signals/alerts', { key, body });
const tick = (at?: string) => {
  if (at) app.clock.set(at);
  return tickAlerts(app.services, app.clock.now());
};
const premium = async (key: string) => (await app.request('GET', '/v1/credits', { key })).body.data.premium;
const ALERT_FIELDS = [
  'id',
  'kind',
  'target',
  'schedule',
  'max_followers',
  'active',
  'next_run_at',
  'last_run_at',
  'last_error',
  'last_run',
  'created_at',
  'updated_at',
  'read',
];

describe('POST /v1/signals/alerts', () => {
  it('needs a paid plan: 403 plan.required', async () => {
    const res = await create((await app.createAccount('free')).apiKey, {
      kind: 'network_profile',
      target: 'https://network.com/in/someone',
    });
    expectError(res, 403, 'plan.required');
  });

  it('creates an alert (201) with its schedule; the first run is due at once', async () => {
    const { apiKey } = await app.createAccount('starter');
    const res = await create(apiKey, {
      kind: 'network_profile',
      target: 'https://www.network.com/in/Someone/',
      schedule: { interval_minutes: 120 },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.data)).toEqual(ALERT_FIELDS);
    expect(res.body.data).toMatchObject({
      kind: 'network_profile',
      target: 'https://network.com/in/someone',
      schedule: { interval_minutes: 120 },
      max_followers: null,
      active: true,
      next_run_at: T0,
      last_run_at: null,
      last_error: null,
      last_run: null,
      read: { tool: 'list_signals', arguments: { source_type: 'alert', source_id: res.body.data.id } },
    });
    expect(res.body.data.id).toMatch(/^alr_/);
    const daily = await create(apiKey, { kind: 'network_post', target: 'https://network.com/posts/abc' });
    expect(daily.body.data.schedule).toEqual({ interval_minutes: 1440 });
  });

  it('refuses bad schedules, targets, max_followers and small company pages', async () => {
    const { apiKey } = await app.createAccount('starter');
    expect(
      (
        await create(apiKey, {
          kind: 'network_profile',
          target: 'https://network.com/in/x',
          schedule: { interval_minutes: 59 },
        })
      ).body.error,
    ).toMatchObject({ code: 'request.invalid', field: 'schedule.interval_minutes' });
    expect(
      (await create(apiKey, { kind: 'network_profile', target: 'https://network.com/company/x' })).body.error,
    ).toMatchObject({ code: 'request.invalid', field: 'target' });
    expect(
      (await create(apiKey, { kind: 'network_profile', target: 'https://network.com/in/x', max_followers: 200 })).body
        .error,
    ).toMatchObject({ code: 'request.invalid', field: 'max_followers' });
    const small = await findTarget('network_company', 'company', (n) => n < 100);
    const res = await create(apiKey, { kind: 'network_company', target: small });
    expectError(res, 400, 'signals.below_minimum');
    const big = await findTarget('network_company', 'company', (n) => n >= 100);
    const ok = await create(apiKey, { kind: 'network_company', target: big });
    expect(ok.status).toBe(201);
    expect(ok.body.warnings.map((w: any) => w.code)).toEqual(['max_followers_missing']);
  });

  it('at most 100 active alerts: the 101st answers 403 alerts.limit_reached, and so does re-activating one', async () => {
    const { apiKey } = await app.createAccount('pro');
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await create(apiKey, { kind: 'network_post', target: `https://network.com/posts/limit-${i}` });
      expect(res.status).toBe(201);
      ids.push(res.body.data.id);
    }
    const over = await create(apiKey, { kind: 'network_post', target: 'https://network.com/posts/limit-x' });
    expectError(over, 403, 'alerts.limit_reached');
    expect(
      (await app.request('PATCH', `/v1/signals/alerts/${ids[0]}`, { key: apiKey, body: { active: false } })).body.data,
    ).toMatchObject({ active: false, next_run_at: null });
    const again = await create(apiKey, { kind: 'network_post', target: 'https://network.com/posts/limit-y' });
    expect(again.status).toBe(201);
    const reactivate = await app.request('PATCH', `/v1/signals/alerts/${ids[0]}`, {
      key: apiKey,
      body: { active: true },
    });
    expectError(reactivate, 403, 'alerts.limit_reached');
    expect((await app.request('GET', '/v1/signals/alerts', { key: apiKey })).body.data).toHaveLength(101);
    // Clean up so the scheduler of later tests does not run these.
    for (const id of [...ids, again.body.data.id])
      await app.request('DELETE', `/v1/signals/alerts/${id}`, { key: apiKey });
  });

  it('a suspended account may pause and edit an alert but not switch it back on (403 account.suspended)', async () => {
    const { apiKey, accountId } = await app.createAccount('pro');
    const made = await create(apiKey, { kind: 'network_post', target: 'https://network.com/posts/suspended-case' });
    expect(made.status).toBe(201);
    const id = made.body.data.id as string;
    const patch = (body: unknown) => app.request('PATCH', `/v1/signals/alerts/${id}`, { key: apiKey, body });
    await app.services.state.setAccountStatus(accountId, 'suspended');
    expect((await patch({ active: false })).body.data).toMatchObject({ active: false });
    expect((await patch({ schedule: { interval_minutes: 120 } })).status).toBe(200);
    expectError(await patch({ active: true }), 403, 'account.suspended');
    expect((await app.request('GET', `/v1/signals/alerts/${id}`, { key: apiKey })).body.data.active).toBe(false);
    await app.services.state.setAccountStatus(accountId, 'active');
    expect((await patch({ active: true })).body.data).toMatchObject({ active: true });
    await app.request('DELETE', `/v1/signals/alerts/${id}`, { key: apiKey });
  });
});

describe('alert runs on the schedule (clock set by the test)', () => {
  it('runs when due, writes rows under the alert, and later runs charge only new leads', async () => {
    const { apiKey } = await app.createAccount('pro');
    const target = await findTarget('network_profile', 'in', (n) => n > 40 && n < 400);
    const alert = (await create(apiKey, { kind: 'network_profile', target, schedule: { interval_minutes: 1440 } })).body
      .data;
    const first = await tick();
    expect(first.started).toHaveLength(1);
    const after1 = await waitAlertRun(app, apiKey, alert.id);
    expect(after1).toMatchObject({ last_run_at: T0, next_run_at: '2026-11-11T12:00:00.000Z', last_error: null });
    expect(after1.last_run).toMatchObject({ alert_id: alert.id, status: 'completed', kind: 'network_profile', target });
    expect(after1.last_run.id).toMatch(/^run_/);
    const run1 = await allSignals(app, apiKey, `source_type=alert&source_id=${alert.id}`);
    const seen1 = new Set(run1.map((r) => r.profile_url));
    expect(after1.last_run.leads).toBe(seen1.size);
    expect((await premium(apiKey)).used).toBe(seen1.size);
    // Nothing is due until the next slot.
    expect((await tick()).started).toEqual([]);

    // Ten days later: new posts, new engagers. Missed daily slots are skipped, not replayed.
    const second = await tick('2026-11-20T13:00:00.000Z');
    expect(second.started).toHaveLength(1);
    const after2 = await waitAlertRun(app, apiKey, alert.id);
    expect(after2.next_run_at).toBe('2026-11-21T12:00:00.000Z');
    const run2 = await allSignals(app, apiKey, `source_type=alert&source_id=${alert.id}&run_id=${after2.last_run.id}`);
    const fresh = new Set(run2.map((r) => r.profile_url).filter((u) => !seen1.has(u)));
    expect(fresh.size).toBeGreaterThan(0);
    expect(
      run2
        .filter((r) => r.lead)
        .map((r) => r.profile_url)
        .sort(),
    ).toEqual([...fresh].sort());
    expect(after2.last_run.leads).toBe(fresh.size);
    expect((await premium(apiKey)).used).toBe(seen1.size + fresh.size);
    // The alert's rows are not collect rows: GET /v1/signals/collect/{run} answers 404.
    expect(
      (await app.request('GET', `/v1/signals/collect/${after2.last_run.id}`, { key: apiKey })).body.error.code,
    ).toBe('collect.not_found');
    await app.request('DELETE', `/v1/signals/alerts/${alert.id}`, { key: apiKey });
  });

  it('an inactive alert does not run; a run that cannot hold its credits is skipped with last_error', async () => {
    const { apiKey, accountId } = await app.createAccount('starter');
    const target = await findTarget('network_profile', 'in', (n) => n > 10 && n < 300);
    const alert = (await create(apiKey, { kind: 'network_profile', target })).body.data;
    await app.request('PATCH', `/v1/signals/alerts/${alert.id}`, { key: apiKey, body: { active: false } });
    expect((await tick()).started).toEqual([]);
    const resumed = (
      await app.request('PATCH', `/v1/signals/alerts/${alert.id}`, {
        key: apiKey,
        body: { active: true, schedule: { interval_minutes: 60 } },
      })
    ).body.data;
    expect(resumed).toMatchObject({ active: true, next_run_at: T0, schedule: { interval_minutes: 60 } });
    // Spend the premium allowance: the run cannot hold and waits for its next slot.
    const now = app.clock.now();
    const h = await app.services.state.reserve({
      accountId,
      kind: 'premium',
      category: null,
      amount: 1000,
      mode: 'exact',
      now,
    });
    await app.services.state.commit(h.id, 1000, now);
    const t = await tick();
    expect(t.started).toEqual([]);
    const skipped = (await app.request('GET', `/v1/signals/alerts/${alert.id}`, { key: apiKey })).body.data;
    expect(skipped).toMatchObject({ last_run: null, next_run_at: '2026-11-10T13:00:00.000Z' });
    expect(skipped.last_error).toContain('Not enough premium credits');
    await app.request('DELETE', `/v1/signals/alerts/${alert.id}`, { key: apiKey });
  });
});

describe('poll, busy, delete, other accounts', () => {
  it('poll runs now (202, alert_id set); a queued run answers 409 alert.busy; delete cancels it and releases the hold', async () => {
    const { apiKey } = await app.createAccount('pro');
    const target = await findTarget('network_profile', 'in', (n) => n > 10 && n < 300);
    const alert = (await create(apiKey, { kind: 'network_profile', target })).body.data;
    await app.runner.stop();
    try {
      const poll = await app.request('POST', `/v1/signals/alerts/${alert.id}/poll`, { key: apiKey });
      expect(poll.status).toBe(202);
      expect(poll.body.data.job).toMatchObject({ alert_id: alert.id, status: 'queued', target });
      expect(poll.body.data.job.hold).toBeGreaterThan(0);
      const busy = await app.request('POST', `/v1/signals/alerts/${alert.id}/poll`, { key: apiKey });
      expectError(busy, 409, 'alert.busy');
      // The schedule meets the busy alert too: skipped, with the reason.
      await tick();
      expect(
        (await app.request('GET', `/v1/signals/alerts/${alert.id}`, { key: apiKey })).body.data.last_error,
      ).toContain('queued or running');
      expect((await premium(apiKey)).held).toBe(poll.body.data.job.hold);
      const del = await app.request('DELETE', `/v1/signals/alerts/${alert.id}`, { key: apiKey });
      expect(del.status).toBe(200);
      expect(del.body.data).toMatchObject({ id: alert.id, deleted: true });
      expect((await premium(apiKey)).held).toBe(0);
      const run = (await app.services.state.getJob(poll.body.data.job.id))!;
      expect(run.status).toBe('cancelled');
      expect(run.error).toContain('deleted');
      expect((await app.request('GET', `/v1/signals/alerts/${alert.id}`, { key: apiKey })).body.error.code).toBe(
        'alert.not_found',
      );
    } finally {
      app.runner.start();
    }
  });

  it("another account's alert, or an unknown id, answers 404 alert.not_found on every route", async () => {
    const a = (await app.createAccount('pro')).apiKey;
    const b = (await app.createAccount('pro')).apiKey;
    const alert = (await create(a, { kind: 'network_post', target: 'https://network.com/posts/mine' })).body.data;
    for (const id of [alert.id, 'alr_unknown']) {
      for (const [method, path, body] of [
        ['GET', `/v1/signals/alerts/${id}`, undefined],
        ['PATCH', `/v1/signals/alerts/${id}`, { active: false }],
        ['DELETE', `/v1/signals/alerts/${id}`, undefined],
        ['POST', `/v1/signals/alerts/${id}/poll`, undefined],
      ] as const) {
        const res = await app.request(method, path, { key: b, ...(body ? { body } : {}) });
        expectError(res, 404, 'alert.not_found');
      }
    }
    expect((await app.request('GET', '/v1/signals/alerts', { key: b })).body.data).toEqual([]);
    expect((await app.request('GET', `/v1/signals/alerts/${alert.id}`, { key: a })).status).toBe(200);
    expect((await app.request('PATCH', `/v1/signals/alerts/${alert.id}`, { key: a, body: {} })).body.error.code).toBe(
      'request.invalid',
    );
    await app.request('DELETE', `/v1/signals/alerts/${alert.id}`, { key: a });
  });
});
