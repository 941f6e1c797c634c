import { createReadStream, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { open, readFile, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { RESP_TYPES } from 'redis';
import type { OptOutAuditRecord, StateStore } from '../port.js';
import type { RedisClient } from '../redis/client.js';

/**
 * Backups of the state store (everything that is not a data release: accounts, keys as hashes, plans' overrides
 * stay in DATA/plans.json, credits, holds, usage, idempotency records, domain lists, opt-outs and their audit, jobs,
 * signals, alerts, sessions, webhooks, audiences, the request log, OAuth records — whatever the store holds).
 *
 * - SQLite: SQLite's online backup API (better-sqlite3 `backup`) copies the state file page by page while servers
 *   keep serving it: the copy is one consistent snapshot. The backup file is a SQLite database.
 * - Redis: a logical export of the deployment's keys (every key under CDS_REDIS_PREFIX, BullMQ's included): one JSON
 *   line per key with its DUMP (base64) and remaining time to live, after a header line. Keys are read one by one
 *   (SCAN), so a backup taken under load is consistent per key, not across keys; take it in a quiet minute for an
 *   exact cut, or stop the servers.
 *
 * A restore refuses to replace a store that holds anything unless forced (`force`), prints the opt-out audit's last
 * entries of what it restored, and reports opt-out changes of the store it replaced that are newer than anything in
 * the backup (a legal record: they must be added again, e.g. with `cds optout import`).
 */

export const REDIS_BACKUP_FORMAT = 'cds-redis-backup';
const SQLITE_MAGIC = 'SQLite format 3\u0000';

export type BackupKind = 'sqlite' | 'redis';

/** Which kind of backup a file holds (by its first bytes), or null. */
export async function backupKind(file: string): Promise<BackupKind | null> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(64);
    const { bytesRead } = await fh.read(buf, 0, 64, 0);
    const head = buf.subarray(0, bytesRead).toString('latin1');
    if (head.startsWith(SQLITE_MAGIC)) return 'sqlite';
    if (head.startsWith(`{"format":"${REDIS_BACKUP_FORMAT}"`)) return 'redis';
    return null;
  } finally {
    await fh.close();
  }
}

/** An online copy of the SQLite state file into `out` (written beside it, then renamed into place). */
export async function backupSqlite(stateFile: string, out: string): Promise<{ bytes: number }> {
  if (!existsSync(stateFile)) throw new Error(`no state file at ${stateFile}`);
  const db = new Database(stateFile, { fileMustExist: true });
  const tmp = `${out}.partial`;
  try {
    rmSync(tmp, { force: true });
    await db.backup(tmp);
  } finally {
    db.close();
  }
  renameSync(tmp, out);
  return { bytes: statSync(out).size };
}

/** The keys of a prefix (a literal prefix: glob characters in it are escaped). */
async function* keysOf(client: RedisClient, prefix: string): AsyncGenerator<string> {
  const pattern = `${prefix.replace(/[*?[\]\\]/g, (c) => `\\${c}`)}*`;
  for await (const batch of client.scanIterator({ MATCH: pattern, COUNT: 1000 }))
    for (const key of batch as unknown as string[]) yield key;
}

/** A logical export of every key under `prefix`: a header line, then one JSON line per key. */
export async function backupRedis(client: RedisClient, prefix: string, out: string): Promise<{ keys: number }> {
  const raw = client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
  const tmp = `${out}.partial`;
  const fh = await open(tmp, 'w', 0o600);
  let keys = 0;
  try {
    await fh.write(
      `${JSON.stringify({ format: REDIS_BACKUP_FORMAT, version: 1, prefix, at: new Date().toISOString() })}\n`,
    );
    let lines: string[] = [];
    for await (const key of keysOf(client, prefix)) {
      // Not in a MULTI: its replies ignore the Buffer type mapping (a DUMP is binary).
      const [dump, pttl] = (await Promise.all([raw.dump(key), client.pTTL(key)])) as unknown as [Buffer | null, number];
      if (dump === null) continue; // deleted since the scan saw it
      lines.push(JSON.stringify({ k: key.slice(prefix.length), t: Number(pttl), d: dump.toString('base64') }));
      keys++;
      if (lines.length >= 500) {
        await fh.write(`${lines.join('\n')}\n`);
        lines = [];
      }
    }
    if (lines.length) await fh.write(`${lines.join('\n')}\n`);
  } finally {
    await fh.close();
  }
  renameSync(tmp, out);
  return { keys };
}

/** Whether the Redis prefix holds any key. */
export async function redisHasKeys(client: RedisClient, prefix: string): Promise<boolean> {
  for await (const _ of keysOf(client, prefix)) return true;
  return false;
}

/** Whether a SQLite state file holds anything a restore would lose (accounts, opt-outs, jobs). */
export function sqliteHasData(stateFile: string): boolean {
  if (!existsSync(stateFile)) return false;
  const db = new Database(stateFile, { readonly: true, fileMustExist: true });
  try {
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map(
        (t) => t.name,
      ),
    );
    return ['accounts', 'optouts', 'jobs'].some(
      (t) => tables.has(t) && (db.prepare(`SELECT 1 FROM ${t} LIMIT 1`).get() as unknown) !== undefined,
    );
  } finally {
    db.close();
  }
}

/** Replaces the SQLite state file by a backup (its WAL and shared-memory files go with the old file). */
export async function restoreSqlite(backup: string, stateFile: string): Promise<void> {
  const tmp = `${stateFile}.restore`;
  await writeFile(tmp, await readFile(backup), { mode: 0o600 });
  for (const side of ['-wal', '-shm']) rmSync(`${stateFile}${side}`, { force: true });
  renameSync(tmp, stateFile);
}

/** Replaces every key under `prefix` by the backup's (which may have been taken under another prefix). */
export async function restoreRedis(client: RedisClient, prefix: string, backup: string): Promise<{ keys: number }> {
  let header: { format?: string } | null = null;
  const existing: string[] = [];
  for await (const key of keysOf(client, prefix)) existing.push(key);
  for (let i = 0; i < existing.length; i += 500) await client.del(existing.slice(i, i + 500));
  // Opened only now: lines read before the loop below starts would be lost.
  const lines = createInterface({ input: createReadStream(backup, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
  let keys = 0;
  let batch = client.multi();
  let queued = 0;
  for await (const line of lines) {
    if (!line) continue;
    if (!header) {
      header = JSON.parse(line) as { format?: string };
      if (header.format !== REDIS_BACKUP_FORMAT) throw new Error('not a cds Redis backup');
      continue;
    }
    const rec = JSON.parse(line) as { k: string; t: number; d: string };
    // PTTL -1: no expiry (RESTORE takes 0); -2 cannot be in a backup (the key was gone).
    batch.restore(`${prefix}${rec.k}`, Math.max(0, rec.t), Buffer.from(rec.d, 'base64'), { REPLACE: true });
    keys++;
    if (++queued >= 200) {
      await batch.exec();
      batch = client.multi();
      queued = 0;
    }
  }
  if (queued) await batch.exec();
  return { keys };
}

/** What a restore says about opt-outs: the audit's last entries, and changes of the replaced store it lacks. */
export interface OptOutReport {
  last: OptOutAuditRecord[];
  /** Audit records of the replaced store newer than the newest record of the backup. */
  newer_than_backup: OptOutAuditRecord[];
  /** Opt-out entries the replaced store held and the restored one does not, by type. */
  missing_entries: Record<string, number>;
}

/** The opt-outs of a store before it is replaced (its audit and entries), to compare with what is restored. */
export async function optOutsOf(store: StateStore): Promise<{ audit: OptOutAuditRecord[]; entries: Set<string> }> {
  const audit = await store.listOptOutAudit(1000);
  const entries = new Set((await store.allOptOuts()).map((e) => `${e.type}:${e.value}`));
  return { audit, entries };
}

export async function optOutReport(
  before: { audit: OptOutAuditRecord[]; entries: Set<string> } | null,
  restored: StateStore,
): Promise<OptOutReport> {
  const now = await optOutsOf(restored);
  const newest = now.audit[0]?.at ?? '';
  const missing: Record<string, number> = {};
  for (const e of before?.entries ?? []) {
    if (now.entries.has(e)) continue;
    const type = e.slice(0, e.indexOf(':'));
    missing[type] = (missing[type] ?? 0) + 1;
  }
  return {
    last: now.audit.slice(0, 10),
    newer_than_backup: (before?.audit ?? []).filter((r) => r.at > newest),
    missing_entries: missing,
  };
}
