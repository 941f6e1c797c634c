import { createHash } from 'node:crypto';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { StateStore } from '../state/port.js';
import { parseSubject } from './subject.js';

/**
 * Models whose id is a bearer value (a token, a code): the store keeps its SHA-256 only, and the payload without
 * `jti`, so a copy of the state store holds no usable token. The provider looks them up by the presented value.
 */
const BEARER_MODELS = new Set([
  'AccessToken',
  'RefreshToken',
  'AuthorizationCode',
  'ClientCredentials',
  'RegistrationAccessToken',
  'InitialAccessToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PushedAuthorizationRequest',
]);

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/**
 * oidc-provider's storage adapter on the service's state store (SQLite or Redis), so every process of a deployment
 * sees the same clients, grants and tokens. Lifetimes are the provider's (wall-clock seconds).
 */
export class StateAdapter implements Adapter {
  private readonly bearer: boolean;

  constructor(
    private readonly model: string,
    private readonly state: () => StateStore,
  ) {
    this.bearer = BEARER_MODELS.has(model);
  }

  private key(id: string): string {
    return this.bearer ? sha256(id) : id;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const now = new Date();
    const kept: AdapterPayload = { ...payload };
    if (this.bearer) delete kept.jti;
    await this.state().oauthUpsert(
      {
        model: this.model,
        id: this.key(id),
        payload: kept,
        grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
        uid: this.model === 'Session' && typeof payload.uid === 'string' ? payload.uid : null,
        accountId: this.model === 'Grant' ? (parseSubject(payload.accountId)?.accountId ?? null) : null,
        expiresAt: typeof expiresIn === 'number' ? new Date(now.getTime() + expiresIn * 1000).toISOString() : null,
      },
      now,
    );
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const found = await this.state().oauthFind(this.model, this.key(id), new Date());
    if (!found) return undefined;
    return {
      ...found.payload,
      ...(this.bearer ? { jti: id } : {}),
      ...(found.consumedAt ? { consumed: Math.floor(Date.parse(found.consumedAt) / 1000) } : {}),
    };
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const found = await this.state().oauthFindByUid(this.model, uid, new Date());
    return found?.payload;
  }

  async findByUserCode(): Promise<AdapterPayload | undefined> {
    // The device flow is off: no record has a user code.
    return undefined;
  }

  async consume(id: string): Promise<void> {
    await this.state().oauthConsume(this.model, this.key(id), new Date());
  }

  async destroy(id: string): Promise<void> {
    await this.state().oauthDestroy(this.model, this.key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.state().oauthRevokeGrant(grantId);
  }
}
