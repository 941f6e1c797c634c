import { createHash } from 'node:crypto';
import type { RedisClient } from './client.js';

/**
 * A Lua script run atomically by Redis: the way every check-then-write step of the adapter is made safe across
 * processes. Scripts rather than MULTI/WATCH because one connection is shared by all of a process's requests, and
 * WATCH belongs to the connection: one request's WATCH would be undone by another's EXEC. Runs by SHA1 and sends
 * the source once when Redis answers NOSCRIPT (after a restart or SCRIPT FLUSH).
 */
export class RedisScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(client: RedisClient, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    const options = { keys: [...keys], arguments: args.map(String) };
    try {
      return await client.evalSha(this.sha, options);
    } catch (e) {
      if (!(e instanceof Error) || !e.message.startsWith('NOSCRIPT')) throw e;
      return await client.eval(this.source, options);
    }
  }

  /** Runs a script that answers a JSON string (cjson.encode). */
  async json<T>(client: RedisClient, keys: readonly string[], args: readonly (string | number)[]): Promise<T> {
    const reply = await this.run(client, keys, args);
    if (typeof reply !== 'string') throw new Error(`Redis script answered ${typeof reply}, expected JSON text`);
    return JSON.parse(reply) as T;
  }
}
