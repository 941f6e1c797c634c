import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { seedRelease } from '../../loaders/seed.js';
import { ensureSecret, loadConfig } from '../../src/config.js';
import { openSqliteStore } from '../../src/state/sqlite/index.js';
import { type ChildServer, cds, startChildServer } from '../helpers/child-server.js';
import { type OwnRedis, redisServerAvailable, startOwnRedis } from '../helpers/redis-server.js';
import { headersOf, type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

/**
 * Webhook delivery through process and store faults, over real child processes: a worker SIGKILLed after an event was
 * recorded and before it was delivered (the restarted process delivers it, same webhook-id); in Redis mode, two API
 * processes and two workers make each attempt once; Redis stopped mid-delivery, and the event is delivered after it
 * returns. Every delivery is verified with the `standardwebhooks` package.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function call(base: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const WEBHOOK_ENV = { CDS_WEBHOOK_ALLOW_HOSTS: '127.0.0.1', CDS_WEBHOOK_TIMEOUT_MS: '1000' };

describe('webhooks: SIGKILL (embedded SQLite)', () => {
  let dir: string;
  let receiver: Receiver;
  const servers: ChildServer[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cds-hooks-kill-'));
    await seedRelease({ dataDir: dir, contacts: 500, companies: 60, seed: 5, asOf: new Date('2026-11-01T00:00:00Z') });
  });
  afterAll(async () => {
    for (const s of servers) await s.kill('SIGKILL');
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function newKey(): Promise<string> {
    const store = openSqliteStore({
      file: join(dir, 'state.sqlite'),
      keyPepper: ensureSecret(loadConfig(['--data', dir])),
    });
    try {
      const now = new Date();
      const a = await store.createAccount({ name: 'k', plan: 'pro', billingDay: null, now });
      return (await store.createKey(a.id, { name: 'k', now })).secret;
    } finally {
      await store.close();
    }
  }

  it('a worker killed while delivering an export.completed: the restarted process delivers it, same webhook-id', async () => {
    // The first request is never answered: the worker is killed while the attempt is in flight.
    receiver = await startReceiver((n) => (n === 0 ? 'hang' : 204));
    const key = await newKey();
    const first = await startChildServer(dir, WEBHOOK_ENV);
    servers.push(first);
    const hook = await call(first.url, key, 'POST', '/v1/webhooks', {
      url: receiver.url,
      events: ['export.completed'],
    });
    expect(hook.status).toBe(201);
    const started = await call(first.url, key, 'POST', '/v1/exports', { filter: {}, max_rows: 3 });
    expect(started.status).toBe(202);
    await receiver.waitFor(1, 30_000);
    await first.kill('SIGKILL');

    const second = await startChildServer(dir, WEBHOOK_ENV);
    servers.push(second);
    // The dead sender's lease (3 x the 1 s timeout + 5 s) runs out, then the attempt is made again.
    const [a, b] = await receiver.waitFor(2, 30_000);
    expect(b!.headers['webhook-id']).toBe(a!.headers['webhook-id']);
    const body = new Webhook(hook.body.data.secret).verify(b!.body, headersOf(b!)) as any;
    expect(body).toMatchObject({ type: 'export.completed', data: { export_id: started.body.data.export_id } });
    const log = await until('the log', async () => {
      const l = (await call(second.url, key, 'GET', `/v1/webhooks/${hook.body.data.id}/deliveries`)).body.data;
      return l.length > 0 ? l : undefined;
    });
    expect(log[0]).toMatchObject({ attempt: 2, ok: true, status_code: 204, event: 'export.completed' });
    await second.kill('SIGTERM');
    await receiver.close();
  }, 120_000);

  it('an event recorded by a process killed before any worker sent it is delivered by the next worker', async () => {
    receiver = await startReceiver(() => 204);
    const key = await newKey();
    // An API process only (no sender): it records key.revoked with the revocation, and is killed.
    const api = await startChildServer(dir, { ...WEBHOOK_ENV, CDS_WORKERS: '0' });
    servers.push(api);
    const hook = await call(api.url, key, 'POST', '/v1/webhooks', { url: receiver.url, events: ['key.revoked'] });
    const keys = (await call(api.url, key, 'GET', '/v1/keys')).body.data;
    expect((await call(api.url, key, 'DELETE', `/v1/keys/${keys[0].id}`)).status).toBe(200);
    await sleep(500);
    expect(receiver.received).toHaveLength(0);
    await api.kill('SIGKILL');

    const worker = await startChildServer(dir, WEBHOOK_ENV);
    servers.push(worker);
    const [got] = await receiver.waitFor(1, 30_000);
    expect(new Webhook(hook.body.data.secret).verify(got!.body, headersOf(got!))).toMatchObject({
      type: 'key.revoked',
      data: { key_id: keys[0].id },
    });
    await sleep(1000);
    expect(receiver.received).toHaveLength(1);
    await worker.kill('SIGTERM');
    await receiver.close();
  }, 120_000);
});

const redisSuite = redisServerAvailable() ? describe : describe.skip;
if (!redisServerAvailable()) process.stdout.write('SKIPPED webhook Redis fault tests: no redis-server on PATH\n');

redisSuite('webhooks: Redis mode', () => {
  let redis: OwnRedis;
  let dir: string;
  let env: Record<string, string>;
  const procs: ChildServer[] = [];
  const workers: ChildProcess[] = [];

  const newAccount = async () => {
    const child = cds(['accounts', 'create', '--plan', 'pro', '--data', dir], env);
    let out = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    await new Promise((r) => child.once('exit', r));
    return JSON.parse(out) as { account_id: string; api_key: string };
  };
  const startWorker = (extra: Record<string, string> = {}) =>
    new Promise<ChildProcess>((resolve, reject) => {
      const child = cds(['worker', '--data', dir], { ...env, ...extra });
      workers.push(child);
      let out = '';
      child.stdout!.on('data', (b: Buffer) => {
        out += b.toString();
        if (out.includes('worker ready')) resolve(child);
      });
      child.once('exit', (c) => reject(new Error(`worker exited ${c}`)));
    });

  beforeAll(async () => {
    redis = await startOwnRedis();
    dir = mkdtempSync(join(tmpdir(), 'cds-hooks-redis-'));
    await seedRelease({ dataDir: dir, contacts: 300, companies: 40, seed: 6, asOf: new Date('2026-11-01T00:00:00Z') });
    env = {
      CDS_STATE: 'redis',
      REDIS_URL: redis.url,
      CDS_SECRET: 'webhook-faults-secret-0123456789abcdef',
      CDS_LOG_LEVEL: 'error',
      CDS_DUCKDB_THREADS: '1',
      CDS_DUCKDB_POOL: '2',
      ...WEBHOOK_ENV,
    };
  }, 120_000);
  afterAll(async () => {
    for (const p of procs) await p.kill('SIGKILL');
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
    await redis?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('two API processes and two workers: every event delivered, each attempt made once', async () => {
    const receiver = await startReceiver(() => 204);
    try {
      const apiEnv = { ...env, CDS_WORKERS: '0' };
      const [a, b] = await Promise.all([startChildServer(dir, apiEnv), startChildServer(dir, apiEnv)]);
      procs.push(a, b);
      await Promise.all([startWorker({ CDS_WORKERS: '2' }), startWorker({ CDS_WORKERS: '2' })]);
      const { api_key: key } = await newAccount();
      const hooks: Array<{ id: string; secret: string }> = [];
      for (let i = 0; i < 4; i++)
        hooks.push(
          (await call(a.url, key, 'POST', '/v1/webhooks', { url: receiver.url, events: ['export.completed'] })).body
            .data,
        );
      // 40 pings, alternating between the two API processes (one at a time: the key's concurrency limit).
      const pings: Array<{ event_id: string }> = [];
      for (let i = 0; i < 40; i++) {
        const res = await call(i % 2 ? a.url : b.url, key, 'POST', `/v1/webhooks/${hooks[i % 4]!.id}/test`);
        expect(res.status).toBe(202);
        pings.push(res.body.data);
      }
      await receiver.waitFor(40, 60_000);
      await sleep(2000);
      const ids = receiver.received.map((r) => String(r.headers['webhook-id']));
      expect(ids).toHaveLength(40);
      expect(new Set(ids).size).toBe(40);
      expect(new Set(ids)).toEqual(new Set(pings.map((p) => p.event_id)));
      for (const [i, r] of receiver.received.entries()) {
        const secrets = hooks.map((h) => h.secret as string);
        const verified = secrets.filter((s) => {
          try {
            new Webhook(s).verify(r.body, headersOf(r));
            return true;
          } catch {
            return false;
          }
        });
        expect({ i, verified: verified.length }).toEqual({ i, verified: 1 });
      }
      for (const h of hooks) {
        const log = (await call(b.url, key, 'GET', `/v1/webhooks/${h.id}/deliveries`)).body.data;
        expect(log).toHaveLength(10);
        expect(log.every((l: any) => l.attempt === 1 && l.ok)).toBe(true);
      }
      await Promise.all([a.kill('SIGTERM'), b.kill('SIGTERM')]);
      for (const w of workers.splice(0)) {
        w.kill('SIGTERM');
        await new Promise((r) => w.once('exit', r));
      }
    } finally {
      await receiver.close();
    }
  }, 180_000);

  it('deliveries come on BullMQ wake-ups, well before the 30 s sweep: the first at once, the retry at its time', async () => {
    // Fails once (500), then answers 204: attempt 1 is woken by the ping's own wake-up, attempt 2 by the delayed
    // wake-up announced for its next_attempt_at (5 s later). The sender's sweep first runs 30 s after start.
    const receiver = await startReceiver((n) => (n === 0 ? 500 : 204));
    try {
      const started = Date.now();
      const server = await startChildServer(dir, env);
      procs.push(server);
      const { api_key: key } = await newAccount();
      const hook = (
        await call(server.url, key, 'POST', '/v1/webhooks', { url: receiver.url, events: ['export.completed'] })
      ).body.data;
      const sent = Date.now();
      const ping = (await call(server.url, key, 'POST', `/v1/webhooks/${hook.id}/test`)).body.data;
      const [first, second] = await receiver.waitFor(2, 25_000);
      expect(first!.headers['webhook-id']).toBe(ping.event_id);
      expect(second!.headers['webhook-id']).toBe(ping.event_id);
      expect(new Webhook(hook.secret).verify(second!.body, headersOf(second!))).toMatchObject({ type: 'ping' });
      expect(first!.at - sent).toBeLessThan(3000);
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(4000);
      expect(second!.at - first!.at).toBeLessThan(9000);
      // Both well before the first sweep of the process could have made them.
      expect(second!.at - started).toBeLessThan(30_000);
      const log = await until('the log', async () => {
        const l = (await call(server.url, key, 'GET', `/v1/webhooks/${hook.id}/deliveries`)).body?.data;
        return l?.length === 2 ? l : undefined;
      });
      expect(log.map((x: any) => [x.attempt, x.ok, x.status_code])).toEqual([
        [2, true, 204],
        [1, false, 500],
      ]);
      await server.kill('SIGTERM');
    } finally {
      await receiver.close();
    }
  }, 120_000);

  it('Redis stopped mid-delivery: the event is delivered after it returns, same webhook-id', async () => {
    // The first attempt's answer comes only after Redis was stopped, so its outcome cannot be recorded.
    let stopped: Promise<void> | undefined;
    const receiver = await startReceiver((n) => (n === 0 ? 'hang' : 204));
    try {
      const server = await startChildServer(dir, env);
      procs.push(server);
      const { api_key: key } = await newAccount();
      const hook = (
        await call(server.url, key, 'POST', '/v1/webhooks', { url: receiver.url, events: ['export.completed'] })
      ).body.data;
      const ping = (await call(server.url, key, 'POST', `/v1/webhooks/${hook.id}/test`)).body.data;
      await receiver.waitFor(1, 30_000);
      stopped = redis.stop();
      await stopped;
      // While Redis is down the API answers 503 and nothing is sent again.
      expect((await call(server.url, key, 'GET', `/v1/webhooks/${hook.id}`)).status).toBe(503);
      await sleep(3000);
      await redis.start();
      const [first, again] = await receiver.waitFor(2, 60_000);
      expect(again!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
      expect(again!.headers['webhook-id']).toBe(ping.event_id);
      expect(new Webhook(hook.secret).verify(again!.body, headersOf(again!))).toMatchObject({ type: 'ping' });
      const log = await until('the log', async () => {
        const l = (await call(server.url, key, 'GET', `/v1/webhooks/${hook.id}/deliveries`)).body?.data;
        return l?.some((x: any) => x.ok) ? l : undefined;
      });
      expect(log[0]).toMatchObject({ ok: true, status_code: 204 });
      await server.kill('SIGTERM');
    } finally {
      await receiver.close();
    }
  }, 180_000);
});
