import type { RedisClient } from '../redis/client.js';
import { redisKeys } from '../redis/keys.js';
import { accountsWriter, readAccounts } from './accounts.js';
import { audiencesWriter, readAudiences } from './audiences.js';
import { creditsWriter, readCredits } from './credits.js';
import { idempotencyWriter, readIdempotency } from './idempotency.js';
import { jobsWriter, readJobs } from './jobs.js';
import { oauthWriter, readOAuth } from './oauth.js';
import { optOutsWriter, readOptOuts } from './optouts.js';
import {
  type RedisFamilyWriter,
  type RedisReadContext,
  type StateRecord,
  scanKeys,
  TransferRefused,
} from './records.js';
import { readRequestLog, requestLogWriter } from './request-log.js';
import { readSessions, sessionsWriter } from './sessions.js';
import { readSignals, signalsWriter } from './signals.js';
import { readWebhooks, webhooksWriter } from './webhooks.js';

/**
 * The Redis side of `cds state export|import`: one reader and one writer per entity family (the files beside this
 * one), in the Redis adapter's layout (redis/keys.ts, and its decoders where it has them).
 */

const READERS = [
  readAccounts,
  readCredits,
  readAudiences,
  readOptOuts,
  readJobs,
  readSignals,
  readWebhooks,
  readOAuth,
  readIdempotency,
  readSessions,
  readRequestLog,
];

const writersOf = (client: RedisClient, prefix: string, now: Date): RedisFamilyWriter[] => [
  accountsWriter(client, prefix),
  creditsWriter(client, prefix),
  audiencesWriter(client, prefix),
  optOutsWriter(client, prefix),
  jobsWriter(client, prefix),
  signalsWriter(client, prefix),
  webhooksWriter(client, prefix, now),
  oauthWriter(client, prefix, now),
  idempotencyWriter(client, prefix, now),
  sessionsWriter(client, prefix, now),
  requestLogWriter(client, prefix),
];

/** Every record of the Redis store under `prefix`, in the SQLite tables' shapes (refused while a hold is held). */
export async function* redisRecords(
  client: RedisClient,
  prefix: string,
  now = new Date(),
): AsyncGenerator<StateRecord> {
  const k = redisKeys(prefix);
  const held = (await client.sCard(k.heldHolds())) + (await client.zCard(k.leasedHolds()));
  if (held > 0)
    throw new TransferRefused(`${held} credit holds are held (requests or jobs running): stop the servers first`);
  const context: RedisReadContext = { client, prefix, accountIds: await client.zRange(k.accounts(), 0, -1), now };
  for (const family of READERS) yield* family(context);
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
  now = new Date(),
): Promise<Record<string, number>> {
  const writers = new Map<string, RedisFamilyWriter>();
  const families = writersOf(client, prefix, now);
  for (const w of families) for (const entity of w.entities) writers.set(entity, w);
  if (replace) {
    const keys: string[] = [];
    for await (const key of scanKeys(client, prefix)) keys.push(key);
    for (let i = 0; i < keys.length; i += 1000) await client.del(keys.slice(i, i + 1000));
  }
  const counts: Record<string, number> = {};
  for await (const r of records) {
    const family = writers.get(r.entity);
    if (!family) throw new TransferRefused(`unknown entity ${JSON.stringify(r.entity)}`);
    await family.write(r);
    counts[r.entity] = (counts[r.entity] ?? 0) + 1;
  }
  for (const w of families) await w.finish();
  return counts;
}
