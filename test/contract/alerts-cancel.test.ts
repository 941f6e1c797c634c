import { SimulatedNetwork } from '../../src/network-signals/simulated/simulated-network.js';
import { parseSignalTarget } from '../../src/network-signals/target.js';
import { tickAlerts } from '../../src/operations/network-signals/alert-runs.js';
import { allSignals, type SignalsApp, startSignalsApp } from './signals-support.js';

/** Deleting an alert while its run is running: the run ends cancelled, the hold is released, rows stay readable. */
let app: SignalsApp;
beforeAll(async () => {
  app = await startSignalsApp({ contacts: 800, companies: 100, env: { CDS_SIGNALS_DELAY_MS: '30' } });
});
afterAll(async () => app.shutdown());

it('a running alert run is cancelled by DELETE; nothing is charged and its rows stay readable', async () => {
  const net = new SimulatedNetwork({ host: 'network.com', clock: app.clock, engine: app.services.engine, delayMs: 0 });
  let target = '';
  for (let i = 0; !target; i++) {
    const url = `https://network.com/company/cancel-${i}`;
    if ((await net.estimate(parseSignalTarget('network_company', url, 'network.com'))) > 3000) target = url;
  }
  const { apiKey } = await app.createAccount('pro');
  const alert = (
    await app.request('POST', '/v1/signals/alerts', {
      key: apiKey,
      body: { kind: 'network_company', target, max_followers: 2000 },
    })
  ).body.data;
  const { started } = await tickAlerts(app.services, app.clock.now());
  expect(started).toHaveLength(1);
  const runId = started[0]!;
  for (;;) {
    const job = (await app.services.state.getJob(runId))!;
    if (job.status === 'running' && ((job.result as { signals?: number }).signals ?? 0) >= 200) break;
    expect(['queued', 'running']).toContain(job.status);
    await new Promise((r) => setTimeout(r, 20));
  }
  expect((await app.request('DELETE', `/v1/signals/alerts/${alert.id}`, { key: apiKey })).status).toBe(200);
  const job = (await app.services.state.getJob(runId))!;
  expect(job.status).toBe('cancelled');
  expect(await app.services.state.getHold(job.holdId!)).toMatchObject({ status: 'released', charged: 0 });
  // The worker notices at its next batch and stops writing.
  await new Promise((r) => setTimeout(r, 300));
  const rows = await allSignals(app, apiKey, `source_type=alert&source_id=${alert.id}`);
  expect(rows.length).toBeGreaterThanOrEqual(200);
  expect(rows.length).toBeLessThan(2000);
  await new Promise((r) => setTimeout(r, 200));
  expect((await allSignals(app, apiKey, `source_type=alert&source_id=${alert.id}`)).length).toBe(rows.length);
  expect((await app.request('GET', '/v1/credits', { key: apiKey })).body.data.premium).toMatchObject({
    used: 0,
    held: 0,
  });
  expect(app.services.jobs.runningJobs()).not.toContain(runId);
});
