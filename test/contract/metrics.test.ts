import { expectError } from '../helpers/errors.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * GET /metrics (Prometheus text) over real HTTP: who may scrape it on the main port, the separate metrics port,
 * and that the figures match what the service answered (requests, 429s, credits charged, jobs, release, stores).
 */
const OPERATOR = 'operator-metrics-token-0123456789abcdef';
const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition, read line by line (independently of prom-client). */
function parse(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/** The value of the one sample with this name and exactly these labels (undefined when absent). */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const same = (a: Record<string, string>) =>
    Object.keys(a).length === Object.keys(labels).length && Object.entries(labels).every(([k, v]) => a[k] === v);
  const found = samples.filter((s) => s.name === name && same(s.labels));
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} appears ${found.length} times`);
  return found[0]?.value;
}

/** Sum of every sample of this name whose labels include these. */
function sum(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((a, s) => a + s.value, 0);
}

/** Polls until `check` passes: charges are counted once the answer is written out, job charges once the job ended. */
async function eventually<T>(read: () => Promise<T>, check: (t: T) => void, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const t = await read();
    try {
      check(t);
      return t;
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe('GET /metrics on the main port (operator token)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { CDS_ADMIN_TOKEN: OPERATOR, CDS_RATE_PER_MINUTE: '20' } });
  });
  afterAll(async () => app.close());

  const scrape = () => app.request<string>('GET', '/metrics', { headers: { Authorization: `Bearer ${OPERATOR}` } });
  const samples = async () => {
    const res = await scrape();
    expect(res.status).toBe(200);
    return parse(res.body);
  };

  it('answers Prometheus text whose figures match what the service answered', async () => {
    const spender = await app.createAccount('pro');
    const flooder = await app.createAccount('pro');
    const filter = { countries: ['US'] };

    const count = await app.request('POST', '/v1/contacts/count', { key: spender.apiKey, body: { filter } });
    expect(count.status).toBe(200);
    const search = await app.request('POST', '/v1/contacts/search', {
      key: spender.apiKey,
      body: { filter, limit: 7, columns: ['name'] },
    });
    expect(search.status).toBe(200);
    const searched = search.body.data.length as number;
    expect(searched).toBe(7);

    // An export: a job that charges its rows when it completes.
    const started = await app.request('POST', '/v1/exports', {
      key: spender.apiKey,
      body: { filter, columns: ['name'] },
    });
    expect(started.status).toBe(202);
    const exportId = started.body.data.export_id as string;
    const job = await eventually(
      async () => app.services.state.getJob(exportId),
      (j) => expect(j?.status).toBe('completed'),
      30_000,
    );
    const exported = job!.result.rows_exported as number;
    expect(exported).toBeGreaterThan(0);
    const got = await app.request('GET', `/v1/exports/${exportId}`, { key: spender.apiKey });
    expect(got.status).toBe(200);

    // Another key runs past its 20 requests a minute.
    const answers: number[] = [];
    for (let i = 0; i < 24; i++)
      answers.push((await app.request('GET', '/v1/account', { key: flooder.apiKey })).status);
    const refused = answers.filter((s) => s === 429).length;
    expect(refused).toBeGreaterThan(0);
    expect(answers.filter((s) => s === 200).length + refused).toBe(24);

    const credits = await app.request('GET', '/v1/credits', { key: spender.apiKey });
    expect(credits.status).toBe(200);
    const charged = credits.body.data.contact.day.used as number;
    expect(charged).toBe(searched + exported);
    const health = await app.request('GET', '/v1/health');
    expect(health.status).toBe(200);

    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(PROMETHEUS_TEXT);
    const s = await eventually(samples, (t) => {
      expect(sum(t, 'cds_credits_charged_total', { kind: 'contact' })).toBe(charged);
      expect(value(t, 'cds_job_duration_seconds_count', { kind: 'export', outcome: 'completed' })).toBe(1);
    });

    // Requests by operation and status; the latency histogram per operation.
    const requests = (route: string, status: string) => value(s, 'cds_http_requests_total', { route, status });
    expect(requests('contacts.count', '200')).toBe(1);
    expect(requests('contacts.search', '200')).toBe(1);
    expect(requests('exports.create', '202')).toBe(1);
    expect(requests('exports.get', '200')).toBe(1);
    expect(requests('account.get', '200')).toBe(24 - refused);
    expect(requests('account.get', '429')).toBe(refused);
    expect(requests('health.get', '200')).toBe(1);
    expect(value(s, 'cds_http_request_duration_seconds_count', { route: 'contacts.search' })).toBe(1);
    expect(value(s, 'cds_http_request_duration_seconds_bucket', { route: 'contacts.search', le: '+Inf' })).toBe(1);
    const buckets = s.filter(
      (x) => x.name === 'cds_http_request_duration_seconds_bucket' && x.labels.route === 'contacts.search',
    );
    expect(buckets.length).toBeGreaterThan(5);
    // No label carries a path with an id.
    expect(s.filter((x) => Object.values(x.labels).some((v) => v.includes(exportId)))).toEqual([]);

    // 429s by reason.
    expect(value(s, 'cds_http_rate_limited_total', { reason: 'rate' })).toBe(refused);
    expect(value(s, 'cds_http_rate_limited_total', { reason: 'concurrency' })).toBe(0);

    // Credits charged by kind and category: the search's rows and the export's rows.
    expect(value(s, 'cds_credits_charged_total', { kind: 'contact', category: 'search' })).toBe(searched);
    expect(value(s, 'cds_credits_charged_total', { kind: 'contact', category: 'export' })).toBe(exported);
    expect(value(s, 'cds_credits_charged_total', { kind: 'premium', category: 'none' })).toBe(0);

    // Jobs and engine calls.
    expect(value(s, 'cds_jobs_failed_total', { kind: 'export' })).toBeUndefined();
    expect(value(s, 'cds_engine_query_duration_seconds_count', { entity: 'contact', kind: 'count' })).toBeGreaterThan(
      0,
    );
    expect(value(s, 'cds_engine_query_duration_seconds_count', { entity: 'contact', kind: 'search' })).toBeGreaterThan(
      0,
    );
    expect(value(s, 'cds_engine_query_duration_seconds_count', { entity: 'contact', kind: 'export' })).toBe(1);
    // Queue depth: the export above has ended, so nothing is queued or running (the embedded default has no
    // BullMQ wake-ups to report).
    expect(value(s, 'cds_jobs', { status: 'queued' })).toBe(0);
    expect(value(s, 'cds_jobs', { status: 'running_here' })).toBe(0);
    expect(s.filter((x) => x.name === 'cds_jobs' && String(x.labels.status).startsWith('wakeup'))).toEqual([]);

    // The release serving and the stores.
    const engine = health.body.data.engine;
    expect(value(s, 'cds_release_info', { release: engine.release })).toBe(1);
    expect(s.filter((x) => x.name === 'cds_release_info')).toHaveLength(1);
    expect(value(s, 'cds_release_contacts')).toBe(engine.contacts);
    expect(value(s, 'cds_release_companies')).toBe(engine.companies);
    expect(value(s, 'cds_state_up', { adapter: 'sqlite' })).toBe(1);
    expect(value(s, 'cds_engine_up', { adapter: 'duckdb' })).toBe(1);

    // Process metrics, with the prefix.
    expect(value(s, 'cds_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(s.some((x) => x.name === 'cds_nodejs_heap_size_total_bytes')).toBe(true);
  });

  it('counts its own scrapes under the route "metrics" and unknown paths as "unmatched"', async () => {
    const before = await samples();
    const unknown = await app.request('GET', '/v1/no-such-route/abc123');
    expectError(unknown, 404, 'route.not_found');
    const after = await samples();
    const count = (t: Sample[], route: string, status: string) =>
      value(t, 'cds_http_requests_total', { route, status }) ?? 0;
    expect(count(after, 'metrics', '200') - count(before, 'metrics', '200')).toBe(1);
    expect(count(after, 'unmatched', '404') - count(before, 'unmatched', '404')).toBe(1);
    expect(after.some((x) => Object.values(x.labels).some((v) => v.includes('abc123')))).toBe(false);
  });

  it('refuses a missing or wrong token (401) and an API key (403) in the error envelope', async () => {
    expectError(await app.request('GET', '/metrics'), 401, 'auth.invalid_key');
    expectError(
      await app.request('GET', '/metrics', { headers: { Authorization: `Bearer ${OPERATOR.replace(/0/g, '1')}` } }),
      401,
      'auth.invalid_key',
    );
    const { apiKey } = await app.createAccount('pro');
    expectError(await app.request('GET', '/metrics', { key: apiKey }), 403, 'auth.oauth_required');
    expectError(
      await app.request('GET', '/metrics', { key: apiKey, keyHeader: 'x-api-key' }),
      403,
      'auth.oauth_required',
    );
  });

  it("counts the sign-in throttle's 429s under the reason sign_in, not other", async () => {
    const before = await samples();
    const wrong = { headers: { Authorization: 'Bearer wrong-operator-token-for-the-throttle' } };
    for (let i = 0; i < 10; i++) expectError(await app.request('GET', '/metrics', wrong), 401, 'auth.invalid_key');
    expectError(await app.request('GET', '/metrics', wrong), 429, 'rate.limited');
    expectError(await app.request('GET', '/metrics', wrong), 429, 'rate.limited');
    const after = await samples();
    const reason = (t: Sample[], r: string) => value(t, 'cds_http_rate_limited_total', { reason: r }) ?? 0;
    expect(reason(after, 'sign_in') - reason(before, 'sign_in')).toBe(2);
    expect(reason(after, 'other') - reason(before, 'other')).toBe(0);
    expect(value(after, 'cds_http_rate_limited_total', { reason: 'operator_sign_in' })).toBeUndefined();
  });
});

describe('GET /metrics without an operator token', () => {
  it('answers 404 route.not_found on the main port, with a hint saying how to turn metrics on', async () => {
    const app = await startTestApp({ contacts: 50, companies: 10 });
    try {
      const res = await app.request('GET', '/metrics', { headers: { Authorization: `Bearer ${OPERATOR}` } });
      expectError(res, 404, 'route.not_found');
      expect(res.body.error.hint).toMatch(/CDS_ADMIN_TOKEN/);
      expect(res.body.error.hint).toMatch(/CDS_METRICS_PORT/);
      expect(app.metricsUrl).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});

describe('the metrics port (CDS_METRICS_PORT)', () => {
  it('serves GET /metrics without auth, only that, not on the main port, and closes with the server', async () => {
    const app = await startTestApp({ contacts: 50, companies: 10, env: { CDS_METRICS_PORT: '0' } });
    let closed = false;
    try {
      const url = app.metricsUrl!;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(new URL(url).port).not.toBe(new URL(app.url).port);
      const health = await app.request('GET', '/v1/health');
      expect(health.status).toBe(200);

      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(PROMETHEUS_TEXT);
      const s = parse(await res.text());
      expect(value(s, 'cds_http_requests_total', { route: 'health.get', status: '200' })).toBe(1);
      expect(value(s, 'cds_state_up', { adapter: 'sqlite' })).toBe(1);
      expect(value(s, 'cds_release_info', { release: health.body.data.engine.release })).toBe(1);
      // Scrapes on the metrics port are not requests of the service.
      expect(s.some((x) => x.name === 'cds_http_requests_total' && x.labels.route === 'metrics')).toBe(false);

      const other = await fetch(new URL('/v1/health', url));
      expect(other.status).toBe(404);
      await other.text();
      const post = await fetch(url, { method: 'POST' });
      expect(post.status).toBe(404);
      await post.text();

      // The main port has no operator token: /metrics is not served there, and the hint names the metrics port.
      const main = await app.request('GET', '/metrics');
      expectError(main, 404, 'route.not_found');
      expect(main.body.error.hint).toMatch(/CDS_METRICS_PORT/);

      await app.close();
      closed = true;
      await expect(fetch(url)).rejects.toThrow();
    } finally {
      if (!closed) await app.close();
    }
  });
});
