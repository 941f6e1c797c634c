import type { RedisClient } from '../redis/client.js';
import { toHold } from '../redis/holds.js';
import { toJob } from '../redis/jobs.js';
import { redisKeys, SETTLED_HOLD_TTL_MS } from '../redis/keys.js';
import {
  hashOf,
  ms,
  orNull,
  type RedisFamilyWriter,
  type RedisReadContext,
  type StateRecord,
  scanHashes,
} from './records.js';

/**
 * Jobs (exports, collects, alert runs, enrichment runs: status, payload, result with its files' metadata; the files
 * stay in DATA) and the settled credit holds they and requests took (`holds`, `hold_windows`). A job's views read
 * its hold, so holds move with it. No hold may be held at a move (state-records refuses the export).
 *
 * Redis keeps a hold's windows as the usage counter keys it moved (`counters`) and names its job (`jobId`); SQLite
 * keeps the windows in `hold_windows` and the job names its hold. A request's settled hold expires on Redis 7 days
 * after it settled (SETTLED_HOLD_TTL_MS), as the Redis adapter does.
 */
export const JOB_TABLES = ['holds', 'hold_windows', 'jobs'] as const;

/** The usage key suffix after `account:<id>:usage:`: kind, scope, window kind, window start (may hold ':'). */
function windowOf(counterKey: string, accountUsagePrefix: string): { kind: string; start: string } | undefined {
  if (!counterKey.startsWith(accountUsagePrefix)) return undefined;
  const [, , kind, ...start] = counterKey.slice(accountUsagePrefix.length).split(':');
  return kind === undefined ? undefined : { kind, start: start.join(':') };
}

export async function* readJobs({ client, prefix }: RedisReadContext): AsyncGenerator<StateRecord> {
  const k = redisKeys(prefix);
  for await (const { h } of scanHashes(client, k.hold(''))) {
    const hold = toHold(h);
    yield {
      entity: 'holds',
      id: hold.id,
      account_id: hold.accountId,
      kind: hold.kind,
      category: hold.category,
      amount: hold.amount,
      charged: hold.charged,
      status: hold.status,
      created_at: hold.createdAt,
      settled_at: hold.settledAt,
      lease_until: orNull(h.leaseUntil),
      line: orNull(h.line),
    };
    const usagePrefix = `${prefix}account:${hold.accountId}:usage:`;
    const seen = new Set<string>();
    for (const key of JSON.parse(h.counters ?? '[]') as string[]) {
      const w = windowOf(key, usagePrefix);
      if (!w || seen.has(w.kind)) continue;
      seen.add(w.kind);
      yield { entity: 'hold_windows', hold_id: hold.id, window_kind: w.kind, window_start: w.start };
    }
  }
  const jobs: Array<{ order: string; job: ReturnType<typeof toJob>; h: Record<string, string> }> = [];
  for await (const { h } of scanHashes(client, k.job(''))) jobs.push({ order: h.order ?? '', job: toJob(h), h });
  // Insertion order (the `order` member's sequence), as SQLite's rowid.
  jobs.sort((x, y) => (x.order < y.order ? -1 : x.order > y.order ? 1 : 0));
  // payload and result as stored (JSON text, written by either adapter), not parsed and written again.
  for (const { job, h } of jobs)
    yield {
      entity: 'jobs',
      id: job.id,
      account_id: job.accountId,
      kind: job.kind,
      status: job.status,
      payload: h.payload ?? '{}',
      result: h.result ?? '{}',
      hold_id: job.holdId,
      error: job.error,
      attempts: job.attempts,
      worker: job.worker,
      created_at: job.createdAt,
      started_at: job.startedAt,
      finished_at: job.finishedAt,
      heartbeat_at: job.heartbeatAt,
    };
}

export function jobsWriter(client: RedisClient, prefix: string): RedisFamilyWriter {
  const k = redisKeys(prefix);
  const holds = new Map<string, StateRecord>();
  const windows = new Map<string, Array<{ kind: string; start: string }>>();
  const jobOfHold = new Map<string, string>();
  let seq = 0;
  return {
    entities: JOB_TABLES,
    async write(r) {
      if (r.entity === 'holds') {
        holds.set(String(r.id), r);
        return;
      }
      if (r.entity === 'hold_windows') {
        const list = windows.get(String(r.hold_id)) ?? [];
        list.push({ kind: String(r.window_kind), start: String(r.window_start) });
        windows.set(String(r.hold_id), list);
        return;
      }
      const id = String(r.id);
      const account = String(r.account_id);
      const kind = String(r.kind);
      const status = String(r.status);
      const order = `${String(++seq).padStart(15, '0')}:${id}`;
      const score = ms(r.created_at);
      const alertId = (JSON.parse(String(r.payload)) as { alertId?: unknown }).alertId;
      if (r.hold_id !== null) jobOfHold.set(String(r.hold_id), id);
      const m = client.multi();
      m.hSet(
        k.job(id),
        hashOf({
          id,
          accountId: account,
          kind,
          status,
          payload: r.payload,
          result: r.result,
          holdId: r.hold_id,
          error: r.error,
          attempts: r.attempts,
          worker: r.worker,
          createdAt: r.created_at,
          startedAt: r.started_at,
          finishedAt: r.finished_at,
          heartbeatAt: r.heartbeat_at,
          alertId: typeof alertId === 'string' ? alertId : null,
          order,
          score,
          rev: 0,
        }),
      );
      m.zAdd(k.accountJobs(account), { score, value: order });
      m.zAdd(k.accountJobsOfKind(account, kind), { score, value: order });
      if (status === 'queued') m.zAdd(k.queuedJobs(kind), { score, value: order });
      if (status === 'running') m.sAdd(k.runningJobs(), id);
      if (status === 'queued' || status === 'running') m.sAdd(k.activeJobs(account), id);
      await m.exec();
    },
    async finish() {
      if (seq > 0) await client.set(k.jobSeq(), String(seq));
      for (const [id, r] of holds) {
        const account = String(r.account_id);
        const scopes = r.category === null ? ['*'] : ['*', String(r.category)];
        const counters = (windows.get(id) ?? []).flatMap((w) =>
          scopes.map((s) => k.usage(account, String(r.kind), s, w.kind, w.start)),
        );
        const jobId = jobOfHold.get(id) ?? null;
        const m = client.multi();
        m.hSet(
          k.hold(id),
          hashOf({
            id,
            accountId: account,
            kind: r.kind,
            category: r.category,
            amount: r.amount,
            charged: r.charged,
            status: r.status,
            createdAt: r.created_at,
            settledAt: r.settled_at,
            leaseUntil: r.lease_until,
            counters: JSON.stringify(counters),
            jobId,
            line: r.line,
            daily: k.dailyUsagePrefix(account),
          }),
        );
        // A request's settled hold lives 7 days after it settled (keys.ts), a job's as long as the job.
        if (jobId === null && r.settled_at !== null) m.pExpireAt(k.hold(id), ms(r.settled_at) + SETTLED_HOLD_TTL_MS);
        await m.exec();
      }
    },
  };
}
