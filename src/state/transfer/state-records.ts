import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import type { RedisClient } from '../redis/client.js';
import { DAILY_USAGE_TTL_MS, redisKeys, USAGE_TTL_MS } from '../redis/keys.js';

/**
 * `cds state export|import` (issue 42): moves an installation between the SQLite and the Redis state adapters through
 * a neutral format, JSON lines: one record per line, `{"entity": "<SQLite table>", ...its columns}` (SQLite's column
 * names and types; text JSON columns kept as text). One reader and one writer per adapter; both speak these records,
 * so every pair of adapters moves through them (SQLite -> Redis -> SQLite gives the same rows: test/e2e/state-transfer).
 *
 * What moves is what an installation cannot make again: accounts, keys (hashes only: the same CDS_SECRET is needed),
 * the credit counters, the usage chart, feedback, domain lists, saved audiences with their count history, opt-outs with their version and audit. Everything
 * else is in SKIPPED_TABLES with the reason; the coverage test fails when a SQLite table is in neither list.
 * Take the export with the servers stopped: it refuses a store holding a held credit hold (a request or job running).
 */

export interface StateRecord {
  entity: string;
  [field: string]: unknown;
}

/** The tables moved, in import order (accounts first). */
export const EXPORTED_TABLES = [
  'accounts',
  'api_keys',
  'usage',
  'usage_daily',
  'feedback',
  'domain_lists',
  'audiences',
  'audience_counts',
  'optouts',
  'optout_version',
  'optout_audit',
] as const;

/** The SQLite tables not moved, and why (an import leaves them empty; the export reports their row counts). */
export const SKIPPED_TABLES: Readonly<Record<string, string>> = {
  // Settled holds are history; the usage counters carry what they charged. The export refuses while one is held.
  holds: 'settled credit holds (history; usage counters carry their charges)',
  hold_windows: 'the windows of settled holds',
  // Idempotency-Key replays live 24 hours; a client retrying across the move is charged as a new request.
  idempotency: 'Idempotency-Key records (24 hours)',
  // Jobs, their signals and alerts: not moved (re-create alerts; finished runs' results stay files in DATA).
  jobs: 'jobs (export runs, enrichment runs, alert runs)',
  signals: 'signal rows of runs',
  signal_people: 'signal leads of runs',
  alerts: 'saved alerts (not moved: create them again)',
  // Sessions and OAuth records: users sign in again and MCP clients connect again.
  console_sessions: 'console sessions (sign in again)',
  oauth_records: 'OAuth grants, codes and tokens (connect MCP clients again)',
  // Webhooks: endpoints are not moved (their secrets are sealed per installation); the outbox is transient.
  webhook_endpoints: 'webhook endpoints (not moved: add them again)',
  webhook_events: 'webhook outbox events',
  webhook_deliveries: 'webhook deliveries',
  webhook_attempts: 'webhook delivery attempts',
  request_log: 'the request log (last 1,000 requests per account)',
  // SQLite's own bookkeeping.
  schema_version: 'the SQLite file migration version',
  sqlite_sequence: 'SQLite AUTOINCREMENT counters',
};

const EXPORTED = new Set<string>(EXPORTED_TABLES);

export class TransferRefused extends Error {}

// ---------------------------------------------------------------------------------------------------- SQLite

/** Every record of the SQLite state file, table by table; the row counts of skipped tables in `skipped`. */
export function* sqliteRecords(file: string, skipped: Record<string, number> = {}): Generator<StateRecord> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const held = db.prepare("SELECT count(*) AS n FROM holds WHERE status = 'held'").get() as { n: number };
    if (held.n > 0)
      throw new TransferRefused(`${held.n} credit holds are held (requests or jobs running): stop the servers first`);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    for (const { name } of tables) {
      if (EXPORTED.has(name) || name === 'sqlite_sequence' || name === 'schema_version') continue;
      const n = (db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n;
      if (n > 0) skipped[name] = n;
    }
    for (const table of EXPORTED_TABLES)
      for (const row of db.prepare(`SELECT * FROM "${table}"`).iterate() as Iterable<Record<string, unknown>>)
        yield { entity: table, ...row };
  } finally {
    db.close();
  }
}

/** True when the SQLite store holds accounts, opt-outs or audit records. */
export function sqliteHasState(file: string): boolean {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return ['accounts', 'optouts', 'optout_audit'].some((t) => db.prepare(`SELECT 1 FROM "${t}" LIMIT 1`).get());
  } finally {
    db.close();
  }
}

/**
 * Writes the records into the (migrated) SQLite state file in one transaction. `replace`: deletes every row of every
 * table first (SQLite's bookkeeping excepted). Entities and fields are checked against the file's own tables and
 * columns: nothing from the file is run as SQL.
 */
export async function sqliteImport(
  file: string,
  records: AsyncIterable<StateRecord>,
  replace: boolean,
): Promise<Record<string, number>> {
  const all: StateRecord[] = [];
  for await (const r of records) all.push(r);
  const db = new Database(file, { fileMustExist: true });
  const counts: Record<string, number> = {};
  try {
    db.pragma('foreign_keys = OFF');
    const columns = new Map<string, Set<string>>();
    for (const t of EXPORTED_TABLES)
      columns.set(t, new Set((db.pragma(`table_info("${t}")`) as { name: string }[]).map((c) => c.name)));
    db.transaction(() => {
      if (replace) {
        const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
        for (const { name } of tables)
          if (name !== 'schema_version' && name !== 'sqlite_sequence') db.prepare(`DELETE FROM "${name}"`).run();
        db.prepare('INSERT INTO optout_version (version) VALUES (0)').run();
      }
      for (const r of all) {
        const { entity, ...fields } = r;
        const cols = columns.get(entity);
        if (!cols) throw new TransferRefused(`unknown entity ${JSON.stringify(entity)}`);
        const names = Object.keys(fields);
        for (const n of names)
          if (!cols.has(n)) throw new TransferRefused(`${entity} has no field ${JSON.stringify(n)}`);
        if (entity === 'optout_version') db.prepare('UPDATE optout_version SET version = ?').run(fields.version);
        else
          db.prepare(
            `INSERT INTO "${entity}" (${names.map((n) => `"${n}"`).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
          ).run(...names.map((n) => fields[n]));
        counts[entity] = (counts[entity] ?? 0) + 1;
      }
    })();
  } finally {
    db.close();
  }
  return counts;
}

// ---------------------------------------------------------------------------------------------------- Redis

const nullable = (v: string | undefined) => (v === undefined ? null : v);
const ms = (iso: unknown) => Date.parse(String(iso));

/** Every record of the Redis store under `prefix`, in the SQLite tables' shapes. */
export async function* redisRecords(client: RedisClient, prefix: string): AsyncGenerator<StateRecord> {
  const k = redisKeys(prefix);
  const held = (await client.sCard(k.heldHolds())) + (await client.zCard(k.leasedHolds()));
  if (held > 0)
    throw new TransferRefused(`${held} credit holds are held (requests or jobs running): stop the servers first`);
  const accountIds = await client.zRange(k.accounts(), 0, -1);
  const accounts: Record<string, string>[] = [];
  for (const id of accountIds) accounts.push((await client.hGetAll(k.account(id))) as Record<string, string>);
  for (const a of accounts)
    yield {
      entity: 'accounts',
      id: a.id,
      name: a.name,
      plan: a.plan,
      billing_day: a.billingDay === undefined ? null : Number(a.billingDay),
      status: a.status,
      created_at: a.createdAt,
    };
  for (const id of accountIds)
    for (const keyId of await client.zRange(k.accountKeys(id), 0, -1)) {
      const h = (await client.hGetAll(k.apiKey(keyId))) as Record<string, string>;
      yield {
        entity: 'api_keys',
        id: h.id,
        account_id: h.accountId,
        prefix: h.prefix,
        hash: h.hash,
        name: nullable(h.name),
        created_at: h.createdAt,
        revoked_at: nullable(h.revokedAt),
        last_used_at: nullable(h.lastUsedAt),
      };
    }
  for (const id of accountIds) {
    const usagePrefix = `${prefix}account:${id}:usage:`;
    for await (const key of scan(client, usagePrefix)) {
      const [kind, category, windowKind, ...start] = key.slice(usagePrefix.length).split(':');
      const h = (await client.hGetAll(key)) as Record<string, string>;
      yield {
        entity: 'usage',
        account_id: id,
        kind,
        category,
        window_kind: windowKind,
        window_start: start.join(':'),
        used: Number(h.used ?? 0),
        held: Number(h.held ?? 0),
      };
    }
  }
  for (const id of accountIds) {
    const dayPrefix = k.dailyUsagePrefix(id);
    for await (const key of scan(client, dayPrefix)) {
      const h = (await client.hGetAll(key)) as Record<string, string>;
      for (const [field, credits] of Object.entries(h)) {
        const at = field.indexOf(':');
        yield {
          entity: 'usage_daily',
          account_id: id,
          day: key.slice(dayPrefix.length),
          kind: field.slice(0, at),
          line: field.slice(at + 1),
          credits: Number(credits),
        };
      }
    }
  }
  for (const id of accountIds) {
    for (const [, json] of Object.entries((await client.hGetAll(k.feedback(id))) as Record<string, string>)) {
      const f = JSON.parse(json) as { id: string; accountId: string; body: unknown; createdAt: string };
      yield {
        entity: 'feedback',
        id: f.id,
        account_id: f.accountId,
        body: JSON.stringify(f.body),
        created_at: f.createdAt,
      };
    }
    for (const audienceId of await client.sMembers(k.audiences(id))) {
      const h = (await client.hGetAll(k.audience(id, audienceId))) as Record<string, string>;
      if (h.id === undefined) continue;
      yield {
        entity: 'audiences',
        id: h.id,
        account_id: id,
        name: h.name,
        description: nullable(h.description),
        filter: h.filter,
        filter_version: Number(h.filterVersion),
        created_at: h.createdAt,
        updated_at: h.updatedAt,
      };
      for (const json of await client.hVals(k.audienceCounts(id, audienceId))) {
        const point = JSON.parse(json) as { release: string; count: number; countedAt: string };
        yield {
          entity: 'audience_counts',
          audience_id: audienceId,
          release: point.release,
          count: point.count,
          counted_at: point.countedAt,
        };
      }
    }
    for (const [, json] of Object.entries((await client.hGetAll(k.domainLists(id))) as Record<string, string>)) {
      const d = JSON.parse(json) as {
        id: string;
        accountId: string;
        name: string;
        domains: string[];
        createdAt: string;
      };
      yield {
        entity: 'domain_lists',
        id: d.id,
        account_id: d.accountId,
        name: d.name,
        domains: JSON.stringify(d.domains),
        created_at: d.createdAt,
      };
    }
  }
  const created = (await client.hGetAll(k.optOutCreated())) as Record<string, string>;
  for (const entry of await client.zRange(k.optOuts(), 0, -1)) {
    const at = entry.indexOf(':');
    yield {
      entity: 'optouts',
      type: entry.slice(0, at),
      value: entry.slice(at + 1),
      created_at: created[entry],
    };
  }
  yield { entity: 'optout_version', version: Number((await client.get(k.optOutVersion())) ?? 0) };
  const records = (await client.hGetAll(k.optOutAuditRecords())) as Record<string, string>;
  const auditCounts = (await client.hGetAll(k.optOutAuditCounts())) as Record<string, string>;
  for (const { value: id, score } of await client.zRangeWithScores(k.optOutAudit(), 0, -1)) {
    const r = JSON.parse(records[id] ?? '{}') as { at: string; action: string; actor: string; type: string };
    yield {
      entity: 'optout_audit',
      seq: score,
      change_id: id.slice(0, id.length - r.type.length - 1),
      type: r.type,
      at: r.at,
      action: r.action,
      actor: r.actor,
      count: Number(auditCounts[id] ?? 0),
    };
  }
}

async function* scan(client: RedisClient, prefix: string): AsyncGenerator<string> {
  const pattern = `${prefix.replace(/[*?[\]\\]/g, (c) => `\\${c}`)}*`;
  for await (const batch of client.scanIterator({ MATCH: pattern, COUNT: 1000 }))
    for (const key of batch as unknown as string[]) yield key;
}

/** True when the Redis store under `prefix` holds accounts, opt-outs or audit records. */
export async function redisHasState(client: RedisClient, prefix: string): Promise<boolean> {
  const k = redisKeys(prefix);
  return (await client.exists([k.accounts(), k.optOuts(), k.optOutAudit()])) > 0;
}

/** Writes the records under `prefix`; `replace` deletes every key under it first (and only those). */
export async function redisImport(
  client: RedisClient,
  prefix: string,
  records: AsyncIterable<StateRecord>,
  replace: boolean,
): Promise<Record<string, number>> {
  const k = redisKeys(prefix);
  if (replace) {
    const keys: string[] = [];
    for await (const key of scan(client, prefix)) keys.push(key);
    for (let i = 0; i < keys.length; i += 1000) await client.del(keys.slice(i, i + 1000));
  }
  const counts: Record<string, number> = {};
  let auditSeq = 0;
  /** The account of each audience imported (audience_counts name only their audience). */
  const audienceAccount = new Map<string, string>();
  const set = (h: Record<string, unknown>) => {
    const out: Record<string, string> = {};
    for (const [f, v] of Object.entries(h)) if (v !== null && v !== undefined) out[f] = String(v);
    return out;
  };
  for await (const r of records) {
    const m = client.multi();
    switch (r.entity) {
      case 'accounts':
        m.hSet(
          k.account(String(r.id)),
          set({
            id: r.id,
            name: r.name,
            plan: r.plan,
            billingDay: r.billing_day,
            status: r.status,
            createdAt: r.created_at,
          }),
        );
        m.zAdd(k.accounts(), { score: ms(r.created_at), value: String(r.id) });
        break;
      case 'api_keys':
        m.hSet(
          k.apiKey(String(r.id)),
          set({
            id: r.id,
            accountId: r.account_id,
            prefix: r.prefix,
            hash: r.hash,
            name: r.name,
            createdAt: r.created_at,
            revokedAt: r.revoked_at,
            lastUsedAt: r.last_used_at,
          }),
        );
        m.set(k.apiKeyByHash(String(r.hash)), String(r.id));
        m.zAdd(k.accountKeys(String(r.account_id)), { score: ms(r.created_at), value: String(r.id) });
        if (r.revoked_at === null) m.set(k.activeKey(String(r.account_id)), String(r.id));
        break;
      case 'usage': {
        const key = k.usage(
          String(r.account_id),
          String(r.kind),
          String(r.category),
          String(r.window_kind),
          String(r.window_start),
        );
        m.hSet(key, { used: String(r.used), held: String(r.held) });
        const ttl = USAGE_TTL_MS[r.window_kind as keyof typeof USAGE_TTL_MS];
        if (ttl) m.pExpire(key, ttl);
        break;
      }
      case 'usage_daily': {
        const key = `${k.dailyUsagePrefix(String(r.account_id))}${r.day}`;
        m.hSet(key, `${r.kind}:${r.line}`, String(r.credits));
        m.pExpire(key, DAILY_USAGE_TTL_MS);
        break;
      }
      case 'feedback': {
        const f = { id: r.id, accountId: r.account_id, body: JSON.parse(String(r.body)), createdAt: r.created_at };
        m.hSet(k.feedback(String(r.account_id)), String(r.id), JSON.stringify(f));
        m.zAdd(k.feedbackOrder(String(r.account_id)), { score: ms(r.created_at), value: String(r.id) });
        break;
      }
      case 'domain_lists': {
        const domains = JSON.parse(String(r.domains)) as string[];
        const d = { id: r.id, accountId: r.account_id, name: r.name, domains, createdAt: r.created_at };
        m.hSet(k.domainLists(String(r.account_id)), String(r.id), JSON.stringify(d));
        m.zAdd(k.domainListOrder(String(r.account_id)), { score: ms(r.created_at), value: String(r.id) });
        m.incrBy(k.domainListDomains(String(r.account_id)), domains.length);
        break;
      }
      case 'audiences': {
        const fields = set({
          id: r.id,
          name: r.name,
          description: r.description,
          filter: r.filter,
          filterVersion: r.filter_version,
          createdAt: r.created_at,
          updatedAt: r.updated_at,
        });
        m.sAdd(k.audiences(String(r.account_id)), String(r.id));
        m.hSet(k.audience(String(r.account_id), String(r.id)), fields);
        audienceAccount.set(String(r.id), String(r.account_id));
        break;
      }
      case 'audience_counts': {
        const account = audienceAccount.get(String(r.audience_id));
        if (account === undefined) throw new TransferRefused(`audience_counts of an unknown audience ${r.audience_id}`);
        const point = { release: r.release, count: r.count, countedAt: r.counted_at };
        m.hSet(k.audienceCounts(account, String(r.audience_id)), String(r.release), JSON.stringify(point));
        break;
      }
      case 'optouts': {
        const entry = `${r.type}:${r.value}`;
        m.zAdd(k.optOuts(), { score: 0, value: entry });
        m.hSet(k.optOutCreated(), entry, String(r.created_at));
        break;
      }
      case 'optout_version':
        m.set(k.optOutVersion(), String(r.version));
        break;
      case 'optout_audit': {
        const id = `${r.change_id}:${r.type}`;
        m.zAdd(k.optOutAudit(), { score: Number(r.seq), value: id });
        m.hSet(
          k.optOutAuditRecords(),
          id,
          JSON.stringify({ at: r.at, action: r.action, actor: r.actor, type: r.type }),
        );
        m.hSet(k.optOutAuditCounts(), id, String(r.count));
        auditSeq = Math.max(auditSeq, Number(r.seq));
        break;
      }
      default:
        throw new TransferRefused(`unknown entity ${JSON.stringify(r.entity)}`);
    }
    await m.exec();
    counts[r.entity] = (counts[r.entity] ?? 0) + 1;
  }
  if (auditSeq > 0) await client.set(k.optOutAuditSeq(), String(auditSeq));
  return counts;
}

// ---------------------------------------------------------------------------------------------------- files

/** Writes the records as JSON lines into `out` (mode 0600: key hashes). */
export async function writeRecords(
  records: AsyncIterable<StateRecord> | Iterable<StateRecord>,
  out: string,
): Promise<Record<string, number>> {
  const fh = await open(out, 'w', 0o600);
  const counts: Record<string, number> = {};
  try {
    for await (const r of records) {
      await fh.write(`${JSON.stringify(r)}\n`);
      counts[r.entity] = (counts[r.entity] ?? 0) + 1;
    }
  } finally {
    await fh.close();
  }
  return counts;
}

/** The records of a file written by writeRecords (a line that is not a record object is refused). */
export async function* readRecords(file: string): AsyncGenerator<StateRecord> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
  let n = 0;
  for await (const line of lines) {
    n++;
    if (!line.trim()) continue;
    const r = JSON.parse(line) as unknown;
    if (typeof r !== 'object' || r === null || typeof (r as StateRecord).entity !== 'string')
      throw new TransferRefused(`line ${n} is not a state record`);
    yield r as StateRecord;
  }
}
