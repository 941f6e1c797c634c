import { toAlert } from '../redis/alerts.js';
import type { RedisClient } from '../redis/client.js';
import { redisKeys } from '../redis/keys.js';
import { peopleField, type RowJson, toSignal } from '../redis/signals.js';
import { hashOf, ms, type RedisFamilyWriter, type RedisReadContext, type StateRecord, scanHashes } from './records.js';

/**
 * Alerts (deleted ones too: their runs and leads name them), the engagement signals collect jobs and alert runs
 * wrote, and the people each source already saw (what makes a later sighting not a lead).
 *
 * Redis keeps no stream position beside a row: a run's positions are a set, and the rows of a run are written in
 * position order (a replayed batch skips what was written), so a run's positions sorted pair with its rows by seq.
 * A run's counters and lead sets are rebuilt from its rows and people.
 */
export const SIGNAL_TABLES = ['alerts', 'signals', 'signal_people'] as const;

export async function* readSignals({ client, prefix }: RedisReadContext): AsyncGenerator<StateRecord> {
  const k = redisKeys(prefix);
  const alerts = [];
  for await (const { h } of scanHashes(client, k.alert(''))) alerts.push(toAlert(h));
  alerts.sort((x, y) => (x.createdAt === y.createdAt ? (x.id < y.id ? -1 : 1) : x.createdAt < y.createdAt ? -1 : 1));
  for (const a of alerts)
    yield {
      entity: 'alerts',
      id: a.id,
      account_id: a.accountId,
      kind: a.kind,
      target: a.target,
      interval_minutes: a.intervalMinutes,
      max_followers: a.maxFollowers,
      active: a.active ? 1 : 0,
      next_run_at: a.nextRunAt,
      last_run_id: a.lastRunId,
      last_run_at: a.lastRunAt,
      last_error: a.lastError,
      created_at: a.createdAt,
      updated_at: a.updatedAt,
      deleted_at: a.deletedAt,
    };
  const rows = Object.entries((await client.hGetAll(k.signalRows())) as Record<string, string>)
    .map(([seq, stored]) => toSignal(seq, stored))
    .sort((x, y) => x.seq - y.seq);
  const positions = new Map<string, number[]>();
  for (const runId of new Set(rows.map((r) => r.runId)))
    positions.set(
      runId,
      (await client.sMembers(k.runPositions(runId))).map(Number).sort((x, y) => x - y),
    );
  const nth = new Map<string, number>();
  for (const s of rows) {
    const i = nth.get(s.runId) ?? 0;
    nth.set(s.runId, i + 1);
    yield {
      entity: 'signals',
      seq: s.seq,
      id: s.id,
      account_id: s.accountId,
      source_type: s.sourceType,
      source_id: s.sourceId,
      run_id: s.runId,
      position: positions.get(s.runId)?.[i] ?? i,
      name: s.name,
      headline: s.headline,
      profile_url: s.profileUrl,
      engagement: s.engagement,
      post_url: s.postUrl,
      at: s.at,
      lead: s.lead ? 1 : 0,
      contact: s.contact === null ? null : JSON.stringify(s.contact),
      created_at: s.createdAt,
    };
  }
  const people = Object.entries((await client.hGetAll(k.signalPeople())) as Record<string, string>).sort(([x], [y]) =>
    x < y ? -1 : 1,
  );
  for (const [field, runId] of people) {
    const [sourceId, personKey] = JSON.parse(field) as [string, string];
    yield { entity: 'signal_people', source_id: sourceId, person_key: personKey, run_id: runId };
  }
}

export function signalsWriter(client: RedisClient, prefix: string): RedisFamilyWriter {
  const k = redisKeys(prefix);
  let lastSeq = 0;
  return {
    entities: SIGNAL_TABLES,
    async write(r) {
      const m = client.multi();
      if (r.entity === 'alerts') {
        const id = String(r.id);
        const account = String(r.account_id);
        const active = r.active === 1 || r.active === true;
        const created = ms(r.created_at);
        m.hSet(
          k.alert(id),
          hashOf({
            id,
            accountId: account,
            kind: r.kind,
            target: r.target,
            intervalMinutes: r.interval_minutes,
            maxFollowers: r.max_followers,
            active: active ? '1' : '0',
            nextRunAt: r.next_run_at,
            nextRunMs: r.next_run_at === null ? null : ms(r.next_run_at),
            lastRunId: r.last_run_id,
            lastRunAt: r.last_run_at,
            lastError: r.last_error,
            createdAt: r.created_at,
            updatedAt: r.updated_at,
            deletedAt: r.deleted_at,
          }),
        );
        if (r.deleted_at === null) {
          m.zAdd(k.accountAlerts(account), { score: created, value: id });
          if (active) m.sAdd(k.activeAlerts(account), id);
          if (active && r.next_run_at !== null) m.zAdd(k.dueAlerts(), { score: ms(r.next_run_at), value: id });
        }
      } else if (r.entity === 'signals') {
        const seq = Number(r.seq);
        const runId = String(r.run_id);
        const json: RowJson = {
          id: String(r.id),
          accountId: String(r.account_id),
          sourceType: r.source_type as RowJson['sourceType'],
          sourceId: String(r.source_id),
          runId,
          name: String(r.name),
          headline: r.headline as string | null,
          profileUrl: String(r.profile_url),
          engagement: r.engagement as RowJson['engagement'],
          postUrl: r.post_url as string | null,
          at: String(r.at),
          contact: r.contact === null ? null : (JSON.parse(String(r.contact)) as RowJson['contact']),
          createdAt: String(r.created_at),
        };
        const lead = r.lead === 1 || r.lead === true;
        m.hSet(k.signalRows(), String(seq), `${lead ? '1' : '0'}${JSON.stringify(json)}`);
        for (const type of [json.sourceType, null])
          for (const source of [json.sourceId, null])
            for (const run of [runId, null])
              m.zAdd(k.signalIndex(json.accountId, type, source, run), { score: seq, value: String(seq) });
        m.sAdd(k.runPositions(runId), String(r.position));
        m.hIncrBy(k.runStats(runId), 'signals', 1);
        if (json.contact !== null) m.hIncrBy(k.runStats(runId), 'contacts', 1);
        if (lead) m.sAdd(k.runLeadRows(runId), String(seq));
        lastSeq = Math.max(lastSeq, seq);
      } else {
        const field = peopleField(String(r.source_id), String(r.person_key));
        m.hSet(k.signalPeople(), field, String(r.run_id));
        m.sAdd(k.runLeads(String(r.run_id)), field);
      }
      await m.exec();
    },
    async finish() {
      if (lastSeq > 0) await client.set(k.signalSeq(), String(lastSeq));
    },
  };
}
