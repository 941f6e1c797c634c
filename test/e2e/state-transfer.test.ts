import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { requestLogOf } from '../../src/operations/requests/recorder.js';
import { EXPORTED_TABLES, SKIPPED_TABLES } from '../../src/state/transfer/state-records.js';
import { cds } from '../helpers/child-server.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';
import { dropPrefix, REDIS_URL, testPrefix } from '../state/store-factories.js';

/**
 * `cds state export|import` (issue 42): every SQLite table is either moved or in the commented skip list; an
 * installation moved SQLite -> Redis -> SQLite holds the same rows in every moved table (expired idempotency
 * records, sessions and OAuth records excepted: they are not moved), the export counts one line per record made,
 * and the Redis store in between and the SQLite store at the end answer the same as the first one, through the
 * store's APIs and over HTTP (jobs, holds, alerts, signals, webhooks and their log, OAuth records, idempotency
 * replays, sessions, the request log, keys, credits, audiences, opt-outs). Redis runs under its own key prefix.
 */

const SECRET = 'state-transfer-secret-0123456789abcdef0';
const HOUR = 3_600_000;

function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = cds(args, { CDS_SECRET: SECRET, CDS_LOG_LEVEL: 'error', ...env });
    let out = '';
    let err = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

/**
 * Every moved table's rows, each as JSON of its columns in name order, sorted. Rows that expired by `now` are left
 * out (they are not moved), and so is the `seq` of the two logs Redis keeps per endpoint and per account (their
 * numbers are made again on the way back; each endpoint's and account's order is checked through the APIs).
 */
function dump(dataDir: string, now: string): Record<string, string[]> {
  const db = new Database(join(dataDir, 'state.sqlite'), { readonly: true, fileMustExist: true });
  const dayAgo = new Date(Date.parse(now) - 24 * HOUR).toISOString();
  const live: Record<string, (r: Record<string, any>) => boolean> = {
    idempotency: (r) => r.created_at > dayAgo,
    console_sessions: (r) => r.expires_at > now,
    oauth_records: (r) => r.expires_at === null || r.expires_at > now,
  };
  try {
    const out: Record<string, string[]> = {};
    for (const t of EXPORTED_TABLES) {
      const rows = (db.prepare(`SELECT * FROM "${t}"`).all() as Record<string, unknown>[]).filter(
        (r) => live[t]?.(r) ?? true,
      );
      out[t] = rows
        .map((r) => {
          const entries = Object.entries(r).filter(
            ([k]) => !(k === 'seq' && /^(webhook_attempts|request_log)$/.test(t)),
          );
          return JSON.stringify(Object.fromEntries(entries.sort(([x], [y]) => (x < y ? -1 : 1))));
        })
        .sort();
    }
    return out;
  } finally {
    db.close();
  }
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = (name: string) => {
  const d = mkdtempSync(join(tmpdir(), name));
  dirs.push(d);
  return d;
};

it('every SQLite table is exported or in the skip list', async () => {
  const app = await startTestApp({ contacts: 20, companies: 5, seed: 1, dataDir: tempDir('cds-xfer-cov-') });
  await app.close();
  const db = new Database(join(app.dataDir, 'state.sqlite'), { readonly: true });
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
    (r) => r.name,
  );
  db.close();
  expect(tables.length).toBeGreaterThan(20);
  const covered = new Set<string>([...EXPORTED_TABLES, ...Object.keys(SKIPPED_TABLES)]);
  expect(tables.filter((t) => !covered.has(t))).toEqual([]);
  // No table is both moved and skipped; only SQLite's own bookkeeping is skipped.
  expect(EXPORTED_TABLES.filter((t) => t in SKIPPED_TABLES)).toEqual([]);
  expect(Object.keys(SKIPPED_TABLES).sort()).toEqual(['schema_version', 'sqlite_sequence']);
}, 60_000);

/** What the test made, by id, to read back from every store. */
interface Made {
  one: { accountId: string; apiKey: string };
  two: { accountId: string; apiKey: string };
  twoKey: string;
  exportId: string;
  jobIds: string[];
  alertIds: string[];
  deletedAlertId: string;
  runs: Array<{ sourceType: 'collect' | 'alert'; sourceId: string; runId: string }>;
  endpointIds: string[];
  pingDeliveryId: string;
  oauth: Array<[string, string]>;
  sessionHash: string;
  expiredSessionHash: string;
}

/** Everything the app's store answers about what was made (read-only calls), once the request log is written. */
async function storeViews(app: TestApp, m: Made) {
  await new Promise((r) => setTimeout(r, 300));
  await requestLogOf(app.services).flush();
  const st = app.services.state;
  const now = app.clock.now();
  const one = m.one.accountId;
  const exportJob = await st.getJob(m.exportId);
  return {
    jobs: await Promise.all(m.jobIds.map((id) => st.getJob(id))),
    listed: [await st.listJobs(one), await st.listJobs(m.two.accountId)],
    exportHold: exportJob?.holdId ? await st.getHold(exportJob.holdId) : 'no hold',
    alerts: await st.listAlerts(one),
    deletedAlert: await st.getAlert(m.deletedAlertId),
    signals: await Promise.all(
      m.runs.map((r) =>
        st.listSignals({
          accountId: one,
          sourceType: r.sourceType,
          sourceId: r.sourceId,
          runId: r.runId,
          afterSeq: null,
          limit: 100,
        }),
      ),
    ),
    runStats: await Promise.all(m.runs.map((r) => st.runStats(r.runId))),
    signalCount: await st.countSignals({ accountId: one }),
    webhooks: await st.listWebhooks(one),
    attempts: await Promise.all(m.endpointIds.map((id) => st.listWebhookAttempts(one, id, 100))),
    ping: await st.getWebhookDelivery(one, m.endpointIds[0]!, m.pingDeliveryId),
    oauth: await Promise.all(m.oauth.map(([model, id]) => st.oauthFind(model, id, now))),
    oauthByUid: await st.oauthFindByUid('Session', 'uid-xfer', now),
    grants: await st.oauthListByAccount(one, 'Grant', now),
    idempotent: await st.beginIdempotent(one, 'idem-done', 'hash-done', now, 30_000),
    idempotentRunning: await st.beginIdempotent(one, 'idem-running', 'hash-running', now, 3_600_000),
    session: await st.getSession(m.sessionHash, now),
    expiredSession: await st.getSession(m.expiredSessionHash, now),
    requestLog: [await st.listRequestLog(one), await st.listRequestLog(m.two.accountId)],
    keys: [await st.listKeys(one), await st.listKeys(m.two.accountId)],
    audiences: await st.listAudiences(one),
    optOuts: await st.allOptOuts(),
    audit: await st.listOptOutAudit(100),
  };
}

/** What the app answers over HTTP about what was made (`data` members; the app's own address made neutral). */
async function httpViews(app: TestApp, m: Made) {
  const key = m.one.apiKey;
  const get = async (path: string, k = key) => {
    const r = await app.request('GET', path, { key: k });
    return {
      status: r.status,
      data: JSON.parse(
        JSON.stringify(r.body.data ?? r.body)
          .split(app.url)
          .join('BASE'),
      ),
    };
  };
  return {
    export: await get(`/v1/exports/${m.exportId}`),
    webhooks: await get('/v1/webhooks'),
    deliveries: await Promise.all(m.endpointIds.map((id) => get(`/v1/webhooks/${id}/deliveries`))),
    alert: await get(`/v1/signals/alerts/${m.alertIds[0]}`),
    alerts: await get('/v1/signals/alerts'),
    signals: await get(`/v1/signals?source_type=alert&source_id=${m.alertIds[0]}`),
    credits: [await get('/v1/credits'), await get('/v1/credits', m.twoKey)],
    revoked: (await app.request('GET', '/v1/credits', { key: m.two.apiKey })).status,
  };
}

async function until<T>(fn: () => Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Makes at least one record of every moved entity on `a`, through the store's APIs and the app over HTTP. */
async function makeEverything(a: TestApp, okHook: Receiver, badHook: Receiver): Promise<Made> {
  const st = a.services.state;
  const now = a.clock.now();
  const iso = (ms: number) => new Date(now.getTime() + ms).toISOString();
  const one = await a.createAccount('pro', { name: 'one' });
  const two = await a.createAccount('free', { name: 'two' });
  for (const x of [one, two]) {
    const r = await a.request('POST', '/v1/contacts/search', { key: x.apiKey, body: { filter: {}, limit: 5 } });
    expect(r.status).toBe(200);
  }
  // Keys: a revoked key and its successor.
  const keys = await st.listKeys(two.accountId);
  await st.revokeKey(two.accountId, keys[0]!.id, now);
  const twoKey = (await st.createKey(two.accountId, { name: 'second', now })).secret;
  // Feedback, a domain list, audiences with a count, opt-outs and their audit.
  await st.addFeedback(one.accountId, { rating: 5, text: 'ok', nested: { a: [1, 2] } }, now);
  await st.createDomainList(
    one.accountId,
    { name: 'mine', domains: ['example.com', 'example.org'], now },
    { lists: 10, domains: 100 },
  );
  const audience = await st.createAudience(
    one.accountId,
    { name: 'US people', description: null, filter: { countries: ['us'], seniority: ['vp'] }, now },
    10,
  );
  await st.recordAudienceCount(one.accountId, audience.id, audience.filterVersion, {
    release: 'r-1',
    count: 42,
    countedAt: now.toISOString(),
  });
  await st.createAudience(two.accountId, { name: 'other', description: 'with words', filter: {}, now }, 10);
  await st.addOptOuts(
    [
      { type: 'email', value: 'gone@example.com' },
      { type: 'url', value: 'linkedin.com/in/gone' },
    ],
    { action: 'add', actor: 'cli:test' },
    now,
  );
  await st.removeOptOuts(
    [{ type: 'url', value: 'linkedin.com/in/gone' }],
    { action: 'remove', actor: 'cli:test' },
    now,
  );

  // Webhooks over HTTP: one receiver answers 204, the other 500 (its delivery waits for a retry).
  const endpointIds: string[] = [];
  for (const [url, description] of [
    [okHook.url, 'CRM'],
    [badHook.url, null],
  ] as const) {
    const r = await a.request('POST', '/v1/webhooks', {
      key: one.apiKey,
      body: { url, events: ['export.completed'], description },
    });
    expect(r.status).toBe(201);
    endpointIds.push(r.body.data.id);
  }
  // An export job over HTTP, run by the app's job runner to completion; its end is delivered to both endpoints.
  const started = await a.request('POST', '/v1/exports', {
    key: one.apiKey,
    body: { filter: { countries: ['US'] }, columns: ['name', 'country'] },
  });
  expect(started.status).toBe(202);
  const exportId = started.body.data.export_id as string;
  a.services.jobs.start();
  try {
    await until(async () => {
      const r = await a.request('GET', `/v1/exports/${exportId}`, { key: one.apiKey });
      return r.body.data?.status === 'completed';
    });
    for (const id of endpointIds)
      await until(async () => (await st.listWebhookAttempts(one.accountId, id, 10)).length > 0);
  } finally {
    await a.services.jobs.stop();
  }
  expect(okHook.received.length).toBe(1);
  // A ping waiting in the outbox (the runner is stopped).
  const ping = await st.recordWebhookEvent(
    one.accountId,
    { type: 'ping', data: { hello: 'world' } },
    now,
    endpointIds[0],
  );
  const pingDeliveryId = ping!.deliveryIds[0]!;

  // Jobs made through the store: a queued collect (no hold), a failed enrichment run.
  await st.createJob({
    id: 'col_xfer1',
    accountId: one.accountId,
    kind: 'collect',
    payload: { target: 't', n: 1 },
    now,
  });
  await st.createJob({
    id: 'run_xfer1',
    accountId: one.accountId,
    kind: 'enrichment_run',
    payload: { rows: 3 },
    hold: { kind: 'contact', category: 'enrich', amount: 3, mode: 'exact' },
    now,
  });
  const claimed = await st.claimJobById('run_xfer1', now, 'worker-x');
  expect(claimed?.status).toBe('running');
  await st.progressJob('run_xfer1', { done: 1, file: { name: 'out.csv', bytes: 10 } }, now);
  await st.finishJob('run_xfer1', { status: 'failed', error: 'boom', charge: 1, result: { done: 1 } }, now);

  // Alerts: one with a run, one paused, one deleted.
  const alertInput = { accountId: one.accountId, kind: 'network_profile' as const, intervalMinutes: 60, now };
  const alert = await st.createAlert({ ...alertInput, target: 'linkedin.com/in/a', maxFollowers: null }, 10);
  await st.updateAlert(alert.id, { lastRunId: 'alr_run1', lastRunAt: now.toISOString(), nextRunAt: iso(HOUR) }, now);
  const paused = await st.createAlert({ ...alertInput, target: 'linkedin.com/in/b', maxFollowers: 500 }, 10);
  await st.updateAlert(paused.id, { active: false, lastError: 'provider said no' }, now);
  const deleted = await st.createAlert({ ...alertInput, target: 'linkedin.com/in/c', maxFollowers: null }, 10);
  await st.deleteAlert(deleted.id, now);

  // Signals: two alert runs (the second sees a person again: not a lead), a collect whose leads were forgotten.
  const engager = (n: number) => ({
    name: `Person ${n}`,
    headline: n % 2 ? `Head ${n}` : null,
    profile_url: `https://www.linkedin.com/in/p${n}`,
    engagement: (n % 3 === 0 ? 'follow' : 'reaction') as 'follow' | 'reaction',
    post_url: n % 3 === 0 ? null : `https://www.linkedin.com/posts/${n}`,
    at: iso(-n * 60_000),
  });
  const rowsOf = (people: number[], from: number) =>
    people.map((n, i) => ({
      position: from + i,
      personKey: `p${n}`,
      engager: engager(n),
      contact: n === 2 ? { id: 'c_2', name: 'Person 2', email: 'p2@example.com' } : null,
    }));
  const runs = [
    { sourceType: 'alert' as const, sourceId: alert.id, runId: 'alr_run1' },
    { sourceType: 'alert' as const, sourceId: alert.id, runId: 'alr_run2' },
    { sourceType: 'collect' as const, sourceId: 'col_xfer1', runId: 'col_xfer1' },
  ];
  const run = (i: number) => ({ accountId: one.accountId, ...runs[i]! });
  await st.addSignals(run(0), rowsOf([1, 2, 3], 0), now);
  await st.addSignals(run(0), rowsOf([4], 3), now);
  await st.addSignals(run(1), rowsOf([2, 5], 0), now);
  await st.addSignals(run(2), rowsOf([1, 6, 7], 0), now);
  await st.forgetRunLeads('col_xfer1');

  // OAuth records: a client kept for good, a grant and its tokens, a session found by uid, a consumed code, and an
  // access token that has expired (not moved).
  const grant = { grantId: 'grant-xfer', uid: null, accountId: null };
  const oauthRecords = [
    {
      model: 'Client',
      id: 'client-xfer',
      payload: { client_id: 'client-xfer' },
      grantId: null,
      uid: null,
      accountId: null,
      expiresAt: null,
    },
    {
      model: 'Grant',
      id: 'grant-xfer',
      payload: { kind: 'Grant' },
      grantId: null,
      uid: null,
      accountId: one.accountId,
      expiresAt: iso(14 * 24 * HOUR),
    },
    {
      model: 'RefreshToken',
      id: 'rt-xfer',
      payload: { kind: 'RefreshToken' },
      ...grant,
      expiresAt: iso(14 * 24 * HOUR),
    },
    {
      model: 'AuthorizationCode',
      id: 'code-xfer',
      payload: { kind: 'AuthorizationCode' },
      ...grant,
      expiresAt: iso(600_000),
    },
    {
      model: 'Session',
      id: 'sess-xfer',
      payload: { kind: 'Session' },
      grantId: null,
      uid: 'uid-xfer',
      accountId: null,
      expiresAt: iso(HOUR),
    },
  ];
  for (const r of oauthRecords) await st.oauthUpsert(r, now);
  await st.oauthConsume('AuthorizationCode', 'code-xfer', now);
  a.clock.set(new Date(now.getTime() - 2 * HOUR).toISOString());
  await st.oauthUpsert(
    { ...oauthRecords[2]!, model: 'AccessToken', id: 'at-expired', expiresAt: iso(-HOUR) },
    a.clock.now(),
  );

  // Idempotency records: a finished one, a running one, and one of 25 hours ago (expired: not moved).
  a.clock.set(new Date(now.getTime() - 25 * HOUR).toISOString());
  expect(await st.beginIdempotent(one.accountId, 'idem-old', 'hash-old', a.clock.now(), 30_000)).toEqual({
    state: 'new',
  });
  await st.finishIdempotent(one.accountId, 'idem-old', 200, { old: true });
  a.clock.set(now.toISOString());
  expect(await st.beginIdempotent(one.accountId, 'idem-done', 'hash-done', now, 30_000)).toEqual({ state: 'new' });
  await st.finishIdempotent(one.accountId, 'idem-done', 201, { id: 'x', list: [1, 2] });
  expect(await st.beginIdempotent(one.accountId, 'idem-running', 'hash-running', now, 30_000)).toEqual({
    state: 'new',
  });

  // Console sessions: a live one and an expired one (not moved).
  const sessionHash = 'a'.repeat(64);
  const expiredSessionHash = 'b'.repeat(64);
  const keyOne = (await st.listKeys(one.accountId))[0]!.id;
  await st.createSession({
    tokenHash: sessionHash,
    accountId: one.accountId,
    keyId: keyOne,
    createdAt: now.toISOString(),
    expiresAt: iso(HOUR),
  });
  await st.createSession({
    tokenHash: expiredSessionHash,
    accountId: one.accountId,
    keyId: null,
    createdAt: iso(-2 * HOUR),
    expiresAt: iso(-HOUR),
  });

  // The request log: the app's own entries (written after each answer) and two more of account two.
  await new Promise((r) => setTimeout(r, 300));
  await requestLogOf(a.services).flush();
  expect((await st.listRequestLog(one.accountId)).length).toBeGreaterThan(4);
  const entry = (requestId: string, at: string) => ({
    requestId,
    accountId: two.accountId,
    at,
    face: 'mcp' as const,
    method: null,
    route: 'search_contacts',
    operation: 'contacts.search',
    status: 200,
    errorCode: null,
    credits: 2,
    durationMs: 12,
    keyPrefix: null,
    client: 'client-xfer',
  });
  await st.appendRequestLog([entry('req_xfer1', iso(1)), entry('req_xfer2', iso(2))], 1000);

  const jobIds = [exportId, 'col_xfer1', 'run_xfer1'];
  return {
    one,
    two,
    twoKey,
    exportId,
    jobIds,
    alertIds: [alert.id, paused.id],
    deletedAlertId: deleted.id,
    runs,
    endpointIds,
    pingDeliveryId,
    oauth: [...oauthRecords.map((r) => [r.model, r.id] as [string, string]), ['AccessToken', 'at-expired']],
    sessionHash,
    expiredSessionHash,
  };
}

(REDIS_URL ? it : it.skip)(
  'SQLite -> Redis -> SQLite keeps every moved row; the Redis and the final SQLite stores answer as the first',
  async () => {
    const prefix = testPrefix();
    const dirA = tempDir('cds-xfer-a-');
    // The stores' clocks at the real time: the move keeps what has not expired by the real clock.
    const NOW = new Date().toISOString();
    const okHook = await startReceiver(() => 204);
    const badHook = await startReceiver(() => 500);
    const appEnv = { CDS_SECRET: SECRET, CDS_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' };
    const appOpts = { contacts: 300, companies: 50, seed: 4, now: NOW };
    const a = await startTestApp({ ...appOpts, dataDir: dirA, env: appEnv });
    let made: Made;
    let viewsA: Awaited<ReturnType<typeof storeViews>>;
    let httpA: Awaited<ReturnType<typeof httpViews>>;
    try {
      made = await makeEverything(a, okHook, badHook);
      // A credit hold still held (a request running) refuses the export; released, it is history and moves.
      const hold = await a.services.state.reserve({
        accountId: made.one.accountId,
        kind: 'contact',
        category: 'search',
        amount: 1,
        mode: 'exact',
        now: a.clock.now(),
      });
      const refused = await runCli(
        ['state', 'export', '--data', dirA, '--state', 'sqlite', '--out', join(dirA, 'x')],
        {},
      );
      expect(refused.code).toBe(2);
      expect(refused.err).toMatch(/1 credit holds are held/);
      await a.services.state.releaseHold(hold.id, a.clock.now());
      // HTTP first: its requests are in the request log and keys' last use the views read, as in the export.
      httpA = await httpViews(a, made);
      viewsA = await storeViews(a, made);
      // What the views must show, so that an equal answer elsewhere means something.
      expect(viewsA.jobs.map((j) => j?.status)).toEqual(['completed', 'queued', 'failed']);
      expect(viewsA.exportHold).toMatchObject({ status: 'committed' });
      expect(viewsA.alerts.length).toBe(2);
      expect(viewsA.deletedAlert?.deletedAt).not.toBeNull();
      expect(viewsA.signals.map((s) => s.length)).toEqual([4, 2, 3]);
      expect(viewsA.signalCount).toBe(9);
      expect(viewsA.runStats).toEqual([
        { signals: 4, leads: 4, contactsMatched: 1 },
        { signals: 2, leads: 1, contactsMatched: 1 },
        { signals: 3, leads: 0, contactsMatched: 0 },
      ]);
      expect(viewsA.webhooks.length).toBe(2);
      expect(viewsA.attempts.map((l) => l.map((x) => x.ok))).toEqual([[true], [false]]);
      expect(viewsA.ping?.state).toBe('pending');
      expect(viewsA.oauth.map((r) => r === undefined)).toEqual([false, false, false, false, false, true]);
      expect(viewsA.oauth[3]?.consumedAt).not.toBeNull();
      expect(viewsA.idempotent).toEqual({ state: 'replay', status: 201, body: { id: 'x', list: [1, 2] } });
      expect(viewsA.idempotentRunning).toEqual({ state: 'running' });
      expect(viewsA.session?.accountId).toBe(made.one.accountId);
      expect(viewsA.expiredSession).toBeUndefined();
      const twoLog = viewsA.requestLog[1]!.map((e) => e.requestId);
      expect(twoLog.filter((id) => id.startsWith('req_xfer'))).toEqual(['req_xfer2', 'req_xfer1']);
      expect(twoLog.length).toBeGreaterThan(2);
      expect(httpA.export).toMatchObject({ status: 200, data: { status: 'completed' } });
      expect(httpA.alert.status).toBe(200);
      expect(httpA.signals).toMatchObject({ status: 200 });
      expect(httpA.signals.data.length).toBe(6);
      expect(httpA.deliveries.map((d) => d.data.length)).toEqual([1, 1]);
    } finally {
      await a.close();
      await okHook.close();
      await badHook.close();
    }
    const before = dump(dirA, NOW);
    for (const t of EXPORTED_TABLES) expect([t, before[t]!.length > 0]).toEqual([t, true]);

    const work = tempDir('cds-xfer-files-');
    const redisEnv = { CDS_STATE: 'redis', REDIS_URL, CDS_REDIS_PREFIX: prefix };
    let b: TestApp | undefined;
    let d: TestApp | undefined;
    try {
      const fileA = join(work, 'a.jsonl');
      const none = await runCli(['state', 'export', '--data', join(work, 'nothing'), '--out', fileA], {});
      expect(none.code).toBe(2);
      expect(none.err).toMatch(/no state store to export/);
      const exp = await runCli(['state', 'export', '--data', dirA, '--state', 'sqlite', '--out', fileA], {});
      expect(exp.err).toBe('');
      expect(exp.code).toBe(0);
      const expOut = JSON.parse(exp.out);
      // One line per record: per entity, as many as the store holds (those expired left out), none dropped.
      expect(expOut.not_exported).toEqual({});
      expect(Object.keys(expOut.records).sort()).toEqual([...EXPORTED_TABLES].sort());
      for (const t of EXPORTED_TABLES) expect([t, expOut.records[t]]).toEqual([t, before[t]!.length]);
      expect(expOut.records).toMatchObject({
        accounts: 2,
        jobs: made.jobIds.length,
        alerts: 3,
        signals: 9,
        signal_people: 5,
        webhook_endpoints: 2,
        webhook_attempts: 2,
        webhook_deliveries: 3,
        oauth_records: 5,
        idempotency: 2,
        console_sessions: 1,
      });
      expect(expOut.records.request_log).toBe(viewsA.requestLog[0]!.length + viewsA.requestLog[1]!.length);

      const imp = await runCli(['state', 'import', '--data', tempDir('cds-xfer-r-'), fileA], redisEnv);
      expect(imp.err).toBe('');
      expect(imp.code).toBe(0);
      expect(JSON.parse(imp.out).records).toEqual(expOut.records);
      // A second import into the now non-empty store is refused without --force, accepted with it.
      const again = await runCli(['state', 'import', '--data', tempDir('cds-xfer-r-'), fileA], redisEnv);
      expect(again.code).toBe(2);
      expect(again.err).toMatch(/refusing to import/);
      const forced = await runCli(['state', 'import', '--force', '--data', tempDir('cds-xfer-r-'), fileA], redisEnv);
      expect(forced.code).toBe(0);

      const fileB = join(work, 'b.jsonl');
      const expR = await runCli(['state', 'export', '--data', tempDir('cds-xfer-r-'), '--out', fileB], redisEnv);
      expect(expR.err).toBe('');
      expect(expR.code).toBe(0);
      // The Redis reader finds every record the Redis writer wrote.
      expect(JSON.parse(expR.out).records).toEqual(expOut.records);
      const dirC = tempDir('cds-xfer-c-');
      const impC = await runCli(['state', 'import', '--data', dirC, '--state', 'sqlite', fileB], {});
      expect(impC.err).toBe('');
      expect(impC.code).toBe(0);
      const after = dump(dirC, NOW);
      for (const t of EXPORTED_TABLES) expect([t, after[t]]).toEqual([t, before[t]]);

      // The Redis store serves the same answers as the first store, and so does the SQLite store at the end.
      // No job runner: the queued job stays queued, as in the first store. The Redis deployment serves the first
      // data dir (its release and export files; its state file is not read in Redis mode).
      b = await startTestApp({
        ...appOpts,
        dataDir: dirA,
        noSeed: true,
        env: { ...appEnv, ...redisEnv, CDS_WORKERS: '0' },
      });
      expect(await storeViews(b, made)).toEqual(viewsA);
      expect(await httpViews(b, made)).toEqual(httpA);
      const heldOnRedis = await b.services.state.reserve({
        accountId: made.one.accountId,
        kind: 'contact',
        category: 'search',
        amount: 1,
        mode: 'exact',
        now: b.clock.now(),
      });
      const refusedR = await runCli(
        ['state', 'export', '--data', tempDir('cds-xfer-r-'), '--out', join(work, 'x')],
        redisEnv,
      );
      expect(refusedR.code).toBe(2);
      expect(refusedR.err).toMatch(/credit holds are held/);
      await b.services.state.releaseHold(heldOnRedis.id, b.clock.now());
      // The files of finished jobs are not in the state: they move with the data dir (here, copied into it).
      cpSync(join(dirA, 'files'), join(dirC, 'files'), { recursive: true });
      d = await startTestApp({ ...appOpts, dataDir: dirC, env: { ...appEnv, CDS_WORKERS: '0' } });
      expect(await storeViews(d, made)).toEqual(viewsA);
      expect(await httpViews(d, made)).toEqual(httpA);
    } finally {
      await b?.close();
      await d?.close();
      await dropPrefix(REDIS_URL, prefix);
    }
  },
  240_000,
);
