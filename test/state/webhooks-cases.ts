import { AppError } from '../../src/domain/errors/index.js';
import { DISABLE_AFTER_MS } from '../../src/domain/webhooks/types.js';
import type { StateStore } from '../../src/state/port.js';

/**
 * The webhook part of the StateStore contract (runStateStoreSuite calls it on every adapter): endpoints scoped to
 * their account, events written with their cause (a job's end, a key's revocation) and only then, deliveries claimed
 * once across two stores over the same storage (two processes), leases, retries, the log, disabling, replay and the
 * once-per-window credits.low guard.
 */
const T = new Date('2026-03-10T12:00:00.000Z');

async function caught(call: Promise<unknown>): Promise<AppError> {
  try {
    await call;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return e as AppError;
  }
  throw new Error('expected an AppError, nothing was thrown');
}
const at = (ms: number) => new Date(T.getTime() + ms);

export function webhookCases(current: () => StateStore, openOther: () => Promise<StateStore>): void {
  describe('webhooks', () => {
    async function account(s: StateStore) {
      return (await s.createAccount({ name: 'w', plan: 't_windows', billingDay: null, now: T })).id;
    }
    const endpoint = (s: StateStore, accountId: string, events: string[] = ['export.completed'], max = 10) =>
      s.createWebhook(
        {
          accountId,
          url: 'https://hooks.example.com/x',
          description: null,
          events: events as never,
          secretSealed: 'sealed-1',
          creditsLowThreshold: null,
          now: T,
        },
        max,
      );

    it('keeps endpoints per account, at most `max`; another account sees none of them', async () => {
      const s = current();
      const [a, b] = [await account(s), await account(s)];
      const e1 = await endpoint(s, a);
      await endpoint(s, a, ['key.revoked'], 2);
      expect((await caught(endpoint(s, a, ['key.revoked'], 2))).code).toBe('webhooks.limit_reached');
      expect((await s.listWebhooks(a)).map((e) => e.id)).toContain(e1.id);
      expect(await s.getWebhook(b, e1.id)).toBeUndefined();
      expect(await s.updateWebhook(b, e1.id, { enabled: false }, T)).toBeUndefined();
      expect(await s.deleteWebhook(b, e1.id)).toBe(false);
      const rotated = await s.updateWebhook(
        a,
        e1.id,
        { description: 'x', rotate: { secretSealed: 'sealed-2', previousExpiresAt: at(1000).toISOString() } },
        at(1),
      );
      expect(rotated).toMatchObject({
        description: 'x',
        secretSealed: 'sealed-2',
        previousSecretSealed: 'sealed-1',
        previousSecretExpiresAt: at(1000).toISOString(),
      });
      const off = await s.updateWebhook(a, e1.id, { enabled: false, description: null }, at(2));
      expect(off).toMatchObject({ enabled: false, description: null, disabledReason: 'Disabled by the account.' });
      expect((await s.updateWebhook(a, e1.id, { enabled: true }, at(3)))?.disabledAt).toBeNull();
      expect(await s.deleteWebhook(a, e1.id)).toBe(true);
      expect(await s.getWebhook(a, e1.id)).toBeUndefined();
    });

    it("writes a job end's event with the end, once, to the subscribed endpoints only", async () => {
      const s = current();
      const a = await account(s);
      const none = await account(s);
      const sub = await endpoint(s, a, ['export.completed']);
      await endpoint(s, a, ['collect.completed']);
      for (const [acc, id] of [
        [a, 'exp_whcase1'],
        [none, 'exp_whcase2'],
      ] as const) {
        await s.createJob({ id, accountId: acc, kind: 'export', payload: { family: 'A' }, now: T });
        expect(await s.finishJob(id, { status: 'completed', result: { rows_exported: 3 }, charge: 0 }, at(10))).toBe(
          true,
        );
        expect(await s.finishJob(id, { status: 'failed', charge: 0 }, at(11))).toBe(false);
      }
      const claimed = await s.claimWebhookDeliveries(at(20), 100, at(60_000));
      const mine = claimed.filter((c) => c.event.accountId === a || c.event.accountId === none);
      expect(mine).toHaveLength(1);
      expect(mine[0]!.endpoint.id).toBe(sub.id);
      expect(mine[0]!.event).toMatchObject({
        type: 'export.completed',
        createdAt: at(10).toISOString(),
        data: { export_id: 'exp_whcase1', family: 'A', rows_exported: 3 },
      });
      expect(mine[0]!.delivery.attempts).toBe(1);
    });

    it('writes key.revoked with the revocation', async () => {
      const s = current();
      const a = await account(s);
      const e = await endpoint(s, a, ['key.revoked']);
      const { key } = await s.createKey(a, { now: T });
      await s.revokeKey(a, key.id, at(5));
      expect((await caught(s.revokeKey(a, key.id, at(6)))).code).toBe('key.not_found');
      const got = (await s.claimWebhookDeliveries(at(10), 100, at(60_000))).filter((c) => c.endpoint.id === e.id);
      expect(got.map((c) => [c.event.type, c.event.data.key_id])).toEqual([['key.revoked', key.id]]);
    });

    it('claims each due attempt once across two stores; a lapsed lease makes it due again', async () => {
      const s = current();
      const other = await openOther();
      const a = await account(s);
      const e = await endpoint(s, a, ['export.completed']);
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) {
        const ev = await s.recordWebhookEvent(a, { type: 'ping', data: { i } }, T, e.id);
        ids.push(...(ev?.deliveryIds ?? []));
      }
      const [x, y] = await Promise.all([
        s.claimWebhookDeliveries(at(1), 100, at(30_000)),
        other.claimWebhookDeliveries(at(1), 100, at(30_000)),
      ]);
      const taken = [...x, ...y].map((c) => c.delivery.id).filter((id) => ids.includes(id));
      expect(taken.sort()).toEqual([...ids].sort());
      expect(
        (await s.claimWebhookDeliveries(at(29_999), 100, at(60_000))).filter((c) => ids.includes(c.delivery.id)),
      ).toEqual([]);
      const again = (await other.claimWebhookDeliveries(at(30_000), 100, at(90_000))).filter((c) =>
        ids.includes(c.delivery.id),
      );
      expect(again.map((c) => c.delivery.attempts)).toEqual(ids.map(() => 2));
      // The sender that lost its lease cannot record attempt 1 any more.
      const ok = {
        ok: true,
        statusCode: 204,
        error: null,
        durationMs: 5,
        at: at(30_001).toISOString(),
        nextRetryAt: null,
      };
      expect(await s.finishWebhookAttempt(ids[0]!, 1, ok, DISABLE_AFTER_MS)).toBe(false);
      expect(await s.finishWebhookAttempt(ids[0]!, 2, ok, DISABLE_AFTER_MS)).toBe(true);
      expect(await s.finishWebhookAttempt(ids[0]!, 2, ok, DISABLE_AFTER_MS)).toBe(false);
    });

    it('retries when told, logs every attempt newest first, fails for good, replays, and disables after 5 days', async () => {
      const s = current();
      const a = await account(s);
      const e = await endpoint(s, a, ['export.completed']);
      const ev = await s.recordWebhookEvent(a, { type: 'ping', data: {} }, T, e.id);
      const id = ev!.deliveryIds[0]!;
      const fail = (when: number, next: number | null) => ({
        ok: false,
        statusCode: 503,
        error: null,
        durationMs: 12,
        at: at(when).toISOString(),
        nextRetryAt: next === null ? null : at(next).toISOString(),
      });
      const claim = async (when: number) =>
        (await s.claimWebhookDeliveries(at(when), 100, at(when + 30_000))).filter((c) => c.delivery.id === id);
      expect(await claim(0)).toHaveLength(1);
      expect(await s.finishWebhookAttempt(id, 1, fail(1, 5_000), DISABLE_AFTER_MS)).toBe(true);
      expect(await claim(4_999)).toHaveLength(0);
      expect(await claim(5_000)).toHaveLength(1);
      expect((await s.getWebhook(a, e.id))?.failingSince).toBe(at(1).toISOString());
      // The last attempt fails for good, past 5 days of failures: the endpoint is disabled and says why.
      expect(await s.finishWebhookAttempt(id, 2, fail(DISABLE_AFTER_MS + 1, null), DISABLE_AFTER_MS)).toBe(true);
      const disabled = await s.getWebhook(a, e.id);
      expect(disabled?.enabled).toBe(false);
      expect(disabled?.disabledReason).toMatch(/failed since .* \(5 days\).*HTTP 503/);
      expect(await s.getWebhookDelivery(a, e.id, id)).toMatchObject({ state: 'failed', attempts: 2 });
      const log = await s.listWebhookAttempts(a, e.id, 100);
      expect(log.map((l) => [l.attempt, l.statusCode, l.eventType])).toEqual([
        [2, 503, 'ping'],
        [1, 503, 'ping'],
      ]);
      expect(await s.listWebhookAttempts(await account(s), e.id, 100)).toEqual([]);
      // Replay: due now again, same event.
      expect(await s.replayWebhookDelivery(await account(s), e.id, id, at(DISABLE_AFTER_MS + 2))).toBeUndefined();
      const replayed = await s.replayWebhookDelivery(a, e.id, id, at(DISABLE_AFTER_MS + 2));
      expect(replayed).toMatchObject({ state: 'pending', eventId: ev!.id });
      const back = await claim(DISABLE_AFTER_MS + 2);
      expect(back.map((c) => [c.delivery.attempts, c.event.id])).toEqual([[3, ev!.id]]);
      const ok = {
        ok: true,
        statusCode: 200,
        error: null,
        durationMs: 1,
        at: at(DISABLE_AFTER_MS + 3).toISOString(),
        nextRetryAt: null,
      };
      expect(await s.finishWebhookAttempt(id, 3, ok, DISABLE_AFTER_MS)).toBe(true);
      expect((await s.getWebhook(a, e.id))?.failingSince).toBeNull();
    });

    it('prunes deliveries that ended before the cutoff; pending ones and newer ones stay', async () => {
      const s = current();
      const a = await account(s);
      const e = await endpoint(s, a);
      const ping = async (when: number) => (await s.recordWebhookEvent(a, { type: 'ping', data: {} }, at(when), e.id))!;
      const [old, oldPending, recent] = [await ping(0), await ping(1), await ping(10_000)];
      const done = { ok: true, statusCode: 204, error: null, durationMs: 1, nextRetryAt: null };
      const claimed = (await s.claimWebhookDeliveries(at(20_000), 100, at(60_000))).filter(
        (c) => c.endpoint.id === e.id,
      );
      expect(claimed).toHaveLength(3);
      for (const ev of [old, recent])
        await s.finishWebhookAttempt(
          ev.deliveryIds[0]!,
          1,
          { ...done, at: at(20_001).toISOString() },
          DISABLE_AFTER_MS,
        );
      await s.finishWebhookAttempt(
        oldPending.deliveryIds[0]!,
        1,
        { ...done, ok: false, statusCode: 503, at: at(20_001).toISOString(), nextRetryAt: at(25_000).toISOString() },
        DISABLE_AFTER_MS,
      );
      expect(await s.pruneWebhooks(at(5_000), 100)).toBeGreaterThanOrEqual(1);
      expect(await s.getWebhookDelivery(a, e.id, old.deliveryIds[0]!)).toBeUndefined();
      expect(await s.getWebhookDelivery(a, e.id, oldPending.deliveryIds[0]!)).toMatchObject({ state: 'pending' });
      expect(await s.getWebhookDelivery(a, e.id, recent.deliveryIds[0]!)).toMatchObject({ state: 'succeeded' });
      expect(await s.replayWebhookDelivery(a, e.id, old.deliveryIds[0]!, at(30_000))).toBeUndefined();
    });

    it('records credits.low once per window, for that endpoint only', async () => {
      const s = current();
      const a = await account(s);
      const e = await s.createWebhook(
        {
          accountId: a,
          url: 'https://hooks.example.com/x',
          description: null,
          events: ['credits.low'],
          secretSealed: 'x',
          creditsLowThreshold: 5,
          now: T,
        },
        10,
      );
      expect((await s.creditsLowEndpoints()).map((x) => x.id)).toContain(e.id);
      const draft = { type: 'credits.low' as const, data: { remaining: 3 } };
      expect(await s.recordCreditsLow(a, e.id, 'day:2026-03-11', draft, T)).toBeDefined();
      expect(await s.recordCreditsLow(a, e.id, 'day:2026-03-11', draft, T)).toBeUndefined();
      expect(await s.recordCreditsLow(await account(s), e.id, 'day:2026-03-12', draft, T)).toBeUndefined();
      expect(await s.recordCreditsLow(a, e.id, 'day:2026-03-12', draft, at(DISABLE_AFTER_MS))).toBeDefined();
      await s.updateWebhook(a, e.id, { events: ['export.completed'] }, T);
      expect((await s.creditsLowEndpoints()).map((x) => x.id)).not.toContain(e.id);
    });
  });
}
