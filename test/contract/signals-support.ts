import type { JobRunner } from '../../src/jobs/runner.js';
import { startTestApp, type TestApp, type TestAppOptions } from '../helpers/test-app.js';

/**
 * The test app with its job runner, which runs the signals workers (openServices registers them); the tests tick
 * the alert scheduler themselves with the clock they set (its 30 s timer never fires within a test).
 */
export interface SignalsApp extends TestApp {
  runner: JobRunner;
  /** Stops the runner (with its timers), then closes the app. */
  shutdown(): Promise<void>;
}

export async function startSignalsApp(opts: TestAppOptions = {}): Promise<SignalsApp> {
  const app = await startTestApp({
    ...opts,
    env: { CDS_SIGNALS_DELAY_MS: '0', CDS_JOB_HEARTBEAT_MS: '200', CDS_JOB_STALE_MS: '2000', ...(opts.env ?? {}) },
  });
  return Object.assign(app, {
    runner: app.services.jobs,
    async shutdown() {
      await app.close();
    },
  });
}

/** Polls a collect job's status until it leaves queued/running. */
export async function waitCollect(app: TestApp, key: string, id: string, timeoutMs = 20_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await app.request('GET', `/v1/signals/collect/${id}`, { key });
    if (res.status !== 200) throw new Error(`status ${res.status}: ${JSON.stringify(res.body)}`);
    if (res.body.data.status !== 'queued' && res.body.data.status !== 'running') return res.body.data;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${res.body.data.status}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Polls an alert until its last run has ended. */
export async function waitAlertRun(app: TestApp, key: string, alertId: string, timeoutMs = 20_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await app.request('GET', `/v1/signals/alerts/${alertId}`, { key });
    const run = res.body.data?.last_run;
    if (run && run.status !== 'queued' && run.status !== 'running') return res.body.data;
    if (Date.now() > deadline) throw new Error(`alert ${alertId} run still ${run?.status}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Every row of a source through the cursor pages. */
export async function allSignals(app: TestApp, key: string, query: string): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  do {
    const res: any = await app.request(
      'GET',
      `/v1/signals?${query}&limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { key },
    );
    if (res.status !== 200) throw new Error(`status ${res.status}: ${JSON.stringify(res.body)}`);
    out.push(...res.body.data);
    cursor = res.body.page.next_cursor;
  } while (cursor);
  return out;
}
