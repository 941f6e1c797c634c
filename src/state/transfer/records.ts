import type { RedisClient } from '../redis/client.js';

/** One record of the transfer format: `{"entity": "<SQLite table>", ...its columns}` (SQLite's names and types). */
export interface StateRecord {
  entity: string;
  [field: string]: unknown;
}

/** A move that must not go on (a held credit hold, an unknown entity or field): the CLI answers exit 2. */
export class TransferRefused extends Error {}

/** What a family's Redis reader is given: the client, the prefix, the accounts, and the time of the export. */
export interface RedisReadContext {
  client: RedisClient;
  prefix: string;
  accountIds: readonly string[];
  now: Date;
}

/**
 * A family's Redis writer: `write` takes the records of its entities (in the file's order) and writes their keys
 * and indexes; `finish` writes what needs every record first (counters, index expiries). Both run after the target
 * prefix was emptied (or found empty).
 */
export interface RedisFamilyWriter {
  readonly entities: readonly string[];
  write(r: StateRecord): Promise<void>;
  finish(): Promise<void>;
}

/** A Redis hash of the fields that are not null (the adapters' "absent field = null"), every value as text. */
export function hashOf(fields: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [f, v] of Object.entries(fields)) if (v !== null && v !== undefined) out[f] = String(v);
  return out;
}

export const orNull = (v: string | undefined): string | null => (v === undefined ? null : v);

/** Milliseconds of an RFC 3339 time. */
export const ms = (iso: unknown): number => Date.parse(String(iso));

/** Every key under a literal prefix (glob characters in it escaped). */
export async function* scanKeys(client: RedisClient, prefix: string): AsyncGenerator<string> {
  const pattern = `${prefix.replace(/[*?[\]\\]/g, (c) => `\\${c}`)}*`;
  for await (const batch of client.scanIterator({ MATCH: pattern, COUNT: 1000 }))
    for (const key of batch as unknown as string[]) yield key;
}

/** The hashes of every key under a prefix, with the key's remainder after the prefix. */
export async function* scanHashes(
  client: RedisClient,
  prefix: string,
): AsyncGenerator<{ rest: string; h: Record<string, string> }> {
  const keys: string[] = [];
  for await (const key of scanKeys(client, prefix)) keys.push(key);
  for (const key of keys.sort()) {
    const h = (await client.hGetAll(key)) as Record<string, string>;
    if (Object.keys(h).length > 0) yield { rest: key.slice(prefix.length), h };
  }
}
