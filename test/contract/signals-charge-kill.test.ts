import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StateStore } from '../../src/state/port.js';
import { allSignals, type SignalsApp, startSignalsApp, waitCollect } from './signals-support.js';

/**
 * A collect worker that dies right after it wrote a batch of rows with their contacts (issue 42's soak finding:
 * the rows and their contact charge were two steps, and a kill between them left the rows stored with their contact
 * uncharged once another process swept the dead worker's hold). The process here "dies" at that exact point: its
 * state store closes under the job the moment the batch's write returns, so nothing after it (the charge of a
 * second step, the saved cursor) can land. The next process sweeps the dead hold, resumes the job from its last
 * saved cursor, and finishes it: every row stored with its contact is charged exactly once.
 */
let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'cds-signals-charge-kill-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Profile targets of the seeded release whose engagers include stored contacts (found by a real collect). */
async function targetWithContacts(app: SignalsApp, key: string): Promise<string> {
  for (let i = 0; i < 40; i++) {
    const target = `https://network.com/in/kill-probe-${i}`;
    const res = await app.request('POST', '/v1/signals/collect', {
      key,
      body: { kind: 'network_profile', target, wait: true },
    });
    if (res.status >= 300) throw new Error(`collect ${res.status}: ${JSON.stringify(res.body)}`);
    const done = await waitCollect(app, key, res.body.data.job.id);
    if (done.contacts_matched >= 3 && done.signals >= 150) return target;
  }
  throw new Error('no probe target with stored contacts among its engagers');
}

/** Makes the store "die" right after the first batch written with a contact: closed before anything else runs. */
function dieAfterChargedBatch(state: StateStore): Promise<void> {
  const write = state.addSignals.bind(state);
  return new Promise<void>((died) => {
    state.addSignals = async (...args) => {
      const out = await write(...args);
      if (out.withContact > 0) {
        await state.close();
        died();
        throw new Error('the process died');
      }
      return out;
    };
  });
}

const contactUsed = async (app: SignalsApp, key: string) =>
  (await app.request('GET', '/v1/credits', { key })).body.data.contact.day as { used: number; held: number };

it('a worker killed right after writing a batch with contacts leaves those rows charged once', async () => {
  const env = { CDS_HOLD_LEASE_MS: '1000' };
  const probe = await startSignalsApp({ dataDir, env });
  const { apiKey: probeKey } = await probe.createAccount('pro');
  const target = await targetWithContacts(probe, probeKey);
  const { apiKey } = await probe.createAccount('pro');
  await probe.shutdown();

  const first = await startSignalsApp({ dataDir, noSeed: true, env: { ...env, CDS_SIGNALS_DELAY_MS: '20' } });
  const died = dieAfterChargedBatch(first.services.state);
  const res = await first.request('POST', '/v1/signals/collect', {
    key: apiKey,
    body: { kind: 'network_profile', target },
  });
  expect(res.status).toBeLessThan(300);
  const id = res.body.data.job.id as string;
  await died;
  await first.shutdown();

  const second = await startSignalsApp({ dataDir, noSeed: true, env });
  try {
    const done = await waitCollect(second, apiKey, id, 60_000);
    expect(done.status).toBe('completed');
    const rows = await allSignals(second, apiKey, `source_type=collect&source_id=${id}`);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    const withContact = rows.filter((r) => r.contact !== null).length;
    expect(withContact).toBeGreaterThanOrEqual(3);
    expect(done.contacts_matched).toBe(withContact);
    // The dead process's request hold outlives it by its lease; past it, the second process's sweep releases what
    // the dead process still held (the test clock stands still: moved past the lease here).
    second.clock.advance(5_000);
    const deadline = Date.now() + 20_000;
    let used = await contactUsed(second, apiKey);
    while (used.held > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      used = await contactUsed(second, apiKey);
    }
    expect(used).toMatchObject({ held: 0, used: withContact });
    const hold = await second.services.state.getHold((await second.services.state.getJob(id))!.holdId!);
    expect(hold).toMatchObject({ status: 'committed', charged: done.leads });
  } finally {
    await second.shutdown();
  }
});
