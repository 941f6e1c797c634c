import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SimulatedNetwork } from '../../src/network-signals/simulated/simulated-network.js';
import { parseSignalTarget } from '../../src/network-signals/target.js';
import { allSignals, type SignalsApp, startSignalsApp, waitCollect } from './signals-support.js';

/**
 * A collect job interrupted by a restart (clean stop, or the process dying with the job running) resumes
 * on the same data dir from its saved cursor: no row is written twice, the hold is settled once, and the
 * rows are readable.
 */
let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'cds-signals-restart-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function bigCompany(app: SignalsApp): Promise<string> {
  const net = new SimulatedNetwork({ host: 'network.com', clock: app.clock, engine: app.services.engine, delayMs: 0 });
  for (let i = 0; ; i++) {
    const url = `https://network.com/company/restart-${i}`;
    if ((await net.estimate(parseSignalTarget('network_company', url, 'network.com'))) > 3000) return url;
  }
}

async function startMidway(app: SignalsApp, key: string, target: string): Promise<string> {
  const id = (
    await app.request('POST', '/v1/signals/collect', {
      key,
      body: { kind: 'network_company', target, max_followers: 1500 },
    })
  ).body.data.job.id;
  for (;;) {
    const s = (await app.request('GET', `/v1/signals/collect/${id}`, { key })).body.data;
    if (s.status === 'running' && s.signals >= 300) return id;
    if (s.status !== 'queued' && s.status !== 'running') throw new Error(`job ended before the restart: ${s.status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function expectSettledOnce(app: SignalsApp, key: string, id: string): Promise<void> {
  const done = await waitCollect(app, key, id);
  expect(done).toMatchObject({
    status: 'completed',
    requested: 1500,
    signals: 1500,
    premium_credits: { held: 0, charged: done.leads },
  });
  const rows = await allSignals(app, key, `source_type=collect&source_id=${id}`);
  expect(rows).toHaveLength(1500);
  expect(new Set(rows.map((r) => r.id)).size).toBe(1500);
  expect(rows.filter((r) => r.lead)).toHaveLength(done.leads);
  const job = (await app.services.state.getJob(id))!;
  expect(await app.services.state.getHold(job.holdId!)).toMatchObject({
    status: 'committed',
    amount: 1500,
    charged: done.leads,
  });
  const premium = (await app.request('GET', '/v1/credits', { key })).body.data.premium;
  expect(premium).toMatchObject({ held: 0, used: done.leads });
}

describe('restart during a running collect job', () => {
  it('a clean stop hands the job back; the next start resumes it from its cursor', async () => {
    const first = await startSignalsApp({ dataDir, env: { CDS_SIGNALS_DELAY_MS: '30' } });
    const { apiKey } = await first.createAccount('pro');
    const target = await bigCompany(first);
    const id = await startMidway(first, apiKey, target);
    await first.shutdown();

    const second = await startSignalsApp({ dataDir, noSeed: true });
    try {
      await expectSettledOnce(second, apiKey, id);
    } finally {
      await second.shutdown();
    }
  });

  it('a process that dies mid-job leaves it running; the next runner requeues and finishes it', async () => {
    const first = await startSignalsApp({ dataDir, noSeed: true, env: { CDS_SIGNALS_DELAY_MS: '30' } });
    const { apiKey } = await first.createAccount('pro');
    const target = await bigCompany(first);
    const id = await startMidway(first, apiKey, target);
    // Die: the state file closes under the running job, so nothing can be handed back; then the rest stops.
    await first.services.state.close();
    await first.shutdown();

    const second = await startSignalsApp({ dataDir, noSeed: true });
    try {
      await expectSettledOnce(second, apiKey, id);
    } finally {
      await second.shutdown();
    }
  });
});
