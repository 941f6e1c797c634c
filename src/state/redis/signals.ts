import { randomToken } from '../../domain/ids.js';
import {
  type AddedSignals,
  type AlertPatch,
  type AlertRecord,
  HoldNotHeldError,
  type NewAlert,
  type NewSignal,
  type RunStats,
  type SignalQuery,
  type SignalRun,
  type SignalStore,
  type StoredSignal,
} from '../../network-signals/port.js';
import { RedisAlerts } from './alerts.js';
import type { RedisClient } from './client.js';
import { toHold } from './holds.js';
import { type RedisKeys, redisKeys } from './keys.js';
import { RedisScript } from './script.js';
import { HOLD_LUA } from './scripts/hold-lua.js';
import { hashOf, type LuaReply } from './scripts/lua-values.js';

/**
 * Writes one batch of a run in one script (a restarted job replaying a batch, or two workers, cannot double-write
 * or double-count): positions the run already wrote are skipped; a person not yet in the source's people is
 * claimed as a lead of this run; with a lead cap the batch stops before the row that would pass it. Every key is
 * named by the run, so the caller passes them all.
 * With a contact hold to charge (the batch's matches), the same script commits it for the rows written with their
 * contact (HOLD_LUA's settle_hold), or writes nothing and answers {-1} when the hold is no longer held.
 * KEYS: seq, rows, people, run positions, run leads, run lead rows, run stats, the row's 8 index sets, then with a
 * hold: the hold, the unleased holds, the leased holds.
 * ARGV: max new leads ('' = no cap), run id, the settlement time ('' = no hold), then per row: position, people
 * field, has contact (1/0), row JSON.
 */
const ADD = new RedisScript(`${HOLD_LUA}
local max = tonumber(ARGV[1])
local runId = ARGV[2]
local settleAt = ARGV[3]
if settleAt ~= '' and redis.call('HGET', KEYS[16], 'status') ~= 'held' then return {-1} end
local accepted, written, withContact, newLeads = 0, 0, 0, 0
for b = 4, #ARGV, 4 do
  local position, person, contact, json = ARGV[b], ARGV[b + 1], ARGV[b + 2], ARGV[b + 3]
  if redis.call('SISMEMBER', KEYS[4], position) == 1 then
    accepted = accepted + 1
  else
    local isNew = redis.call('HEXISTS', KEYS[3], person) == 0
    if isNew and max and newLeads >= max then break end
    local seq = redis.call('INCR', KEYS[1])
    local lead = '0'
    if isNew then
      redis.call('HSET', KEYS[3], person, runId)
      redis.call('SADD', KEYS[5], person)
      redis.call('SADD', KEYS[6], seq)
      lead = '1'
      newLeads = newLeads + 1
    end
    redis.call('HSET', KEYS[2], seq, lead .. json)
    for i = 8, 15 do redis.call('ZADD', KEYS[i], seq, seq) end
    redis.call('SADD', KEYS[4], position)
    redis.call('HINCRBY', KEYS[7], 'signals', 1)
    if contact == '1' then
      redis.call('HINCRBY', KEYS[7], 'contacts', 1)
      withContact = withContact + 1
    end
    accepted = accepted + 1
    written = written + 1
  end
end
if settleAt == '' then return {accepted, written, withContact, newLeads} end
settle_hold(KEYS[16], 'committed', withContact, settleAt, KEYS[17], KEYS[18])
return {accepted, written, withContact, newLeads, redis.call('HGETALL', KEYS[16])}
`);

/**
 * Gives a run's people back to its source and clears the lead flag of its rows, in one step. KEYS: run leads,
 * run lead rows, people, rows. ARGV: run id.
 */
const FORGET = new RedisScript(`
for _, person in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('HGET', KEYS[3], person) == ARGV[1] then redis.call('HDEL', KEYS[3], person) end
end
for _, seq in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  local v = redis.call('HGET', KEYS[4], seq)
  if v then redis.call('HSET', KEYS[4], seq, '0' .. string.sub(v, 2)) end
end
redis.call('DEL', KEYS[1], KEYS[2])
return 1
`);

/** A row as stored after its lead flag: StoredSignal without seq and lead (those are the field and the flag). */
export type RowJson = Omit<StoredSignal, 'seq' | 'lead'>;

/** Exported for cds state export (state/transfer). */
export const toSignal = (seq: string, stored: string): StoredSignal => {
  const r = JSON.parse(stored.slice(1)) as RowJson;
  return {
    seq: Number(seq),
    id: r.id,
    accountId: r.accountId,
    sourceType: r.sourceType,
    sourceId: r.sourceId,
    runId: r.runId,
    name: r.name,
    headline: r.headline,
    profileUrl: r.profileUrl,
    engagement: r.engagement,
    postUrl: r.postUrl,
    at: r.at,
    lead: stored.startsWith('1'),
    contact: r.contact,
    createdAt: r.createdAt,
  };
};

/**
 * Signal rows and alerts (layout in keys.ts). A person's first sighting for a source (a collect job, or an alert
 * over all its runs) is a field of the people hash naming the run that saw it: that is what makes a row a lead, so
 * lead counting survives restarts. Rows are never deleted, so reads need no script.
 */
export class RedisSignals implements SignalStore {
  private readonly k: RedisKeys;
  private readonly alerts: RedisAlerts;

  constructor(
    private readonly client: RedisClient,
    prefix: string,
  ) {
    this.k = redisKeys(prefix);
    this.alerts = new RedisAlerts(client, prefix);
  }

  async addSignals(
    run: SignalRun,
    rows: readonly NewSignal[],
    now: Date,
    maxNewLeads?: number,
    chargeHold?: string,
  ): Promise<AddedSignals> {
    if (rows.length === 0 && chargeHold === undefined) return { accepted: 0, written: 0, withContact: 0, newLeads: 0 };
    const k = this.k;
    const createdAt = now.toISOString();
    const args: (string | number)[] = [maxNewLeads ?? '', run.runId, chargeHold === undefined ? '' : createdAt];
    for (const row of rows) {
      const e = row.engager;
      const json: RowJson = {
        id: `sig_${randomToken(16)}`,
        accountId: run.accountId,
        sourceType: run.sourceType,
        sourceId: run.sourceId,
        runId: run.runId,
        name: e.name,
        headline: e.headline,
        profileUrl: e.profile_url,
        engagement: e.engagement,
        postUrl: e.post_url,
        at: e.at,
        contact: row.contact ?? null,
        createdAt,
      };
      args.push(row.position, peopleField(run.sourceId, row.personKey), row.contact ? 1 : 0, JSON.stringify(json));
    }
    const indexes: string[] = [];
    for (const type of [run.sourceType, null])
      for (const source of [run.sourceId, null])
        for (const runId of [run.runId, null]) indexes.push(k.signalIndex(run.accountId, type, source, runId));
    const keys = [
      k.signalSeq(),
      k.signalRows(),
      k.signalPeople(),
      k.runPositions(run.runId),
      k.runLeads(run.runId),
      k.runLeadRows(run.runId),
      k.runStats(run.runId),
      ...indexes,
      ...(chargeHold === undefined ? [] : [k.hold(chargeHold), k.heldHolds(), k.leasedHolds()]),
    ];
    const reply = (await ADD.run(this.client, keys, args)) as LuaReply[];
    if (reply[0] === -1) throw new HoldNotHeldError(chargeHold ?? '');
    const [accepted = 0, written = 0, withContact = 0, newLeads = 0] = reply.slice(0, 4) as number[];
    const out: AddedSignals = { accepted, written, withContact, newLeads };
    if (chargeHold === undefined) return out;
    const hold = hashOf(reply[4]);
    if (!hold) throw new HoldNotHeldError(chargeHold);
    return { ...out, charged: toHold(hold) };
  }

  async runStats(runId: string): Promise<RunStats> {
    const [counts, leads] = (await this.client
      .multi()
      .hmGet(this.k.runStats(runId), ['signals', 'contacts'])
      .sCard(this.k.runLeads(runId))
      .exec()) as unknown as [(string | null)[], number];
    return { signals: Number(counts[0] ?? 0), leads, contactsMatched: Number(counts[1] ?? 0) };
  }

  async forgetRunLeads(runId: string): Promise<void> {
    const k = this.k;
    await FORGET.run(this.client, [k.runLeads(runId), k.runLeadRows(runId), k.signalPeople(), k.signalRows()], [runId]);
  }

  /** Rows in insertion order after `afterSeq`: a range read of the index of exactly this filter. */
  async listSignals(q: SignalQuery): Promise<StoredSignal[]> {
    const seqs = await this.client.zRange(this.indexOf(q), q.afterSeq === null ? '-inf' : `(${q.afterSeq}`, '+inf', {
      BY: 'SCORE',
      LIMIT: { offset: 0, count: q.limit },
    });
    if (seqs.length === 0) return [];
    const stored = await this.client.hmGet(this.k.signalRows(), seqs);
    const out: StoredSignal[] = [];
    seqs.forEach((seq, i) => {
      const v = stored[i];
      if (typeof v === 'string') out.push(toSignal(seq, v));
    });
    return out;
  }

  async countSignals(q: Omit<SignalQuery, 'afterSeq' | 'limit'>): Promise<number> {
    return this.client.zCard(this.indexOf(q));
  }

  createAlert(input: NewAlert, maxActive: number): Promise<AlertRecord> {
    return this.alerts.create(input, maxActive);
  }

  getAlert(id: string): Promise<AlertRecord | undefined> {
    return this.alerts.get(id);
  }

  listAlerts(accountId: string): Promise<AlertRecord[]> {
    return this.alerts.list(accountId);
  }

  updateAlert(id: string, patch: AlertPatch, now: Date, maxActive?: number): Promise<AlertRecord> {
    return this.alerts.update(id, patch, now, maxActive);
  }

  deleteAlert(id: string, now: Date): Promise<AlertRecord> {
    return this.alerts.delete(id, now);
  }

  dueAlerts(now: Date, limit: number): Promise<AlertRecord[]> {
    return this.alerts.due(now, limit);
  }

  claimAlertSlot(id: string, due: string, next: string, now: Date): Promise<boolean> {
    return this.alerts.claimSlot(id, due, next, now);
  }

  private indexOf(q: Omit<SignalQuery, 'afterSeq' | 'limit'>): string {
    return this.k.signalIndex(q.accountId, q.sourceType ?? null, q.sourceId ?? null, q.runId ?? null);
  }
}

/** The people hash's field for a person of a source: JSON, so no two (source, person) pairs share one. */
export function peopleField(sourceId: string, personKey: string): string {
  return JSON.stringify([sourceId, personKey]);
}
