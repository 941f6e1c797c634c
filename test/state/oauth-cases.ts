import type { OAuthRecord } from '../../src/domain/oauth-record.js';
import type { StateStore } from '../../src/state/port.js';

/**
 * The OAuth authorization server's part of the StateStore contract (runStateStoreSuite calls it on every adapter):
 * records by (model, id) with expiry, uid lookups, consumption, grant revocation and the per-account list, shared by
 * two stores over the same storage (two processes).
 */
const T = new Date('2026-03-10T12:00:00.000Z');
const later = (ms: number) => new Date(T.getTime() + ms);

const rec = (over: Partial<OAuthRecord> & Pick<OAuthRecord, 'model' | 'id'>): OAuthRecord => ({
  payload: { iat: 1, kind: over.model },
  grantId: null,
  uid: null,
  accountId: null,
  expiresAt: null,
  ...over,
});

export function oauthCases(current: () => StateStore, openOther: () => Promise<StateStore>): void {
  describe('OAuth records', () => {
    it('keeps a record by model and id until it expires; another process reads it', async () => {
      const s = current();
      await s.oauthUpsert(rec({ model: 'AccessToken', id: 'h1', expiresAt: later(60_000).toISOString() }), T);
      await s.oauthUpsert(rec({ model: 'Client', id: 'h1', payload: { iat: 2, client_name: 'Client A' } }), T);
      // Closed by the suite with every store it opened.
      const other = await openOther();
      const found = await other.oauthFind('AccessToken', 'h1', later(59_999));
      expect(found?.payload).toEqual({ iat: 1, kind: 'AccessToken' });
      expect(found?.consumedAt).toBeNull();
      expect(await other.oauthFind('AccessToken', 'h1', later(60_000))).toBeUndefined();
      expect((await other.oauthFind('Client', 'h1', later(10 * 86_400_000)))?.payload.client_name).toBe('Client A');
      expect(await other.oauthFind('RefreshToken', 'h1', T)).toBeUndefined();
    });

    it('replaces a record on upsert, finds by uid, marks consumed once and destroys', async () => {
      const s = current();
      await s.oauthUpsert(rec({ model: 'Session', id: 's1', uid: 'u1', payload: { iat: 1, v: 1 } }), T);
      await s.oauthUpsert(rec({ model: 'Session', id: 's1', uid: 'u1', payload: { iat: 1, v: 2 } }), T);
      expect((await s.oauthFindByUid('Session', 'u1', T))?.payload.v).toBe(2);
      expect(await s.oauthFindByUid('Session', 'nope', T)).toBeUndefined();
      await s.oauthUpsert(rec({ model: 'AuthorizationCode', id: 'c1' }), T);
      await s.oauthConsume('AuthorizationCode', 'c1', later(1000));
      await s.oauthConsume('AuthorizationCode', 'c1', later(2000));
      expect((await s.oauthFind('AuthorizationCode', 'c1', T))?.consumedAt).toBe(later(1000).toISOString());
      await s.oauthConsume('AuthorizationCode', 'missing', T);
      expect(await s.oauthFind('AuthorizationCode', 'missing', T)).toBeUndefined();
      await s.oauthDestroy('Session', 's1');
      expect(await s.oauthFind('Session', 's1', T)).toBeUndefined();
      expect(await s.oauthFindByUid('Session', 'u1', T)).toBeUndefined();
    });

    it('revoking a grant deletes its codes and tokens only; an account lists only its own grants', async () => {
      const s = current();
      await s.oauthUpsert(rec({ model: 'Grant', id: 'g1', accountId: 'acc_a', payload: { iat: 5 } }), T);
      await s.oauthUpsert(rec({ model: 'Grant', id: 'g0', accountId: 'acc_a', payload: { iat: 3 } }), T);
      await s.oauthUpsert(rec({ model: 'Grant', id: 'g2', accountId: 'acc_b', payload: { iat: 4 } }), T);
      const exp = later(3_600_000).toISOString();
      await s.oauthUpsert(rec({ model: 'AccessToken', id: 'a1', grantId: 'g1', expiresAt: exp }), T);
      await s.oauthUpsert(rec({ model: 'RefreshToken', id: 'r1', grantId: 'g1' }), T);
      await s.oauthUpsert(rec({ model: 'AccessToken', id: 'a2', grantId: 'g2', expiresAt: exp }), T);
      expect((await s.oauthListByAccount('acc_a', 'Grant', T)).map((g) => g.id)).toEqual(['g0', 'g1']);
      expect((await s.oauthListByAccount('acc_b', 'Grant', T)).map((g) => g.accountId)).toEqual(['acc_b']);
      expect(await s.oauthListByAccount('acc_a', 'Client', T)).toEqual([]);
      await s.oauthRevokeGrant('g1');
      expect(await s.oauthFind('AccessToken', 'a1', T)).toBeUndefined();
      expect(await s.oauthFind('RefreshToken', 'r1', T)).toBeUndefined();
      expect(await s.oauthFind('AccessToken', 'a2', T)).toBeDefined();
      expect(await s.oauthFind('Grant', 'g1', T)).toBeDefined();
      await s.oauthDestroy('Grant', 'g1');
      expect((await s.oauthListByAccount('acc_a', 'Grant', T)).map((g) => g.id)).toEqual(['g0']);
      // An expired grant is no longer listed.
      await s.oauthUpsert(
        rec({ model: 'Grant', id: 'g3', accountId: 'acc_c', expiresAt: later(1000).toISOString() }),
        T,
      );
      expect((await s.oauthListByAccount('acc_c', 'Grant', T)).length).toBe(1);
      expect(await s.oauthListByAccount('acc_c', 'Grant', later(1000))).toEqual([]);
    });
  });
}
