import { newId } from '../../domain/ids.js';
import type { Feedback } from '../port.js';
import type { RedisAccounts } from './accounts.js';
import type { RedisClient } from './client.js';
import { type RedisKeys, redisKeys } from './keys.js';

/**
 * Feedback rows (`POST /v1/feedback`), kept as the JSON the client sent: a hash of records per account and a sorted
 * set giving their order. Nothing is checked across rows, so one MULTI writes both.
 */
export class RedisFeedback {
  private readonly k: RedisKeys;

  constructor(
    private readonly client: RedisClient,
    prefix: string,
    private readonly accounts: RedisAccounts,
  ) {
    this.k = redisKeys(prefix);
  }

  async add(accountId: string, body: Record<string, unknown>, now: Date): Promise<Feedback> {
    await this.accounts.require(accountId);
    const feedback: Feedback = {
      id: newId('feedback'),
      accountId,
      // Stored as JSON and answered parsed, as the SQLite adapter does (undefined members drop out the same way).
      body: JSON.parse(JSON.stringify(body)) as Record<string, unknown>,
      createdAt: now.toISOString(),
    };
    await this.client
      .multi()
      .hSet(this.k.feedback(accountId), feedback.id, JSON.stringify(feedback))
      .zAdd(this.k.feedbackOrder(accountId), { score: now.getTime(), value: feedback.id })
      .exec();
    return feedback;
  }

  /** Oldest first (created_at, then id). */
  async list(accountId: string): Promise<Feedback[]> {
    const ids = await this.client.zRange(this.k.feedbackOrder(accountId), 0, -1);
    if (ids.length === 0) return [];
    const rows = await this.client.hmGet(this.k.feedback(accountId), ids);
    return rows.filter((r): r is string => typeof r === 'string').map((r) => JSON.parse(r) as Feedback);
  }
}
