/** The parts of oidc-provider 8 (plain JavaScript, no bundled types) this service uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface AdapterPayload extends Record<string, unknown> {
    jti?: string;
    grantId?: string;
    uid?: string;
    accountId?: string;
    consumed?: number;
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface ClientInfo {
    clientId: string;
    clientName?: string;
    redirectUris: string[];
    clientAuthMethod: string;
    grantTypeAllowed(type: string): boolean;
    [k: string]: unknown;
  }

  export interface AccessTokenInfo {
    jti: string;
    accountId: string;
    clientId: string;
    grantId: string;
    aud?: string | string[];
    scope?: string;
    exp?: number;
    iat?: number;
    isExpired: boolean;
    isValid: boolean;
  }

  export interface GrantInstance {
    jti?: string;
    accountId: string;
    clientId: string;
    exp?: number;
    iat?: number;
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    getResourceScopeEncountered(resource: string): string;
    save(ttl?: number): Promise<string>;
    destroy(): Promise<void>;
  }

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, string | undefined>;
    session?: { accountId?: string; uid?: string };
    grantId?: string;
    returnTo: string;
    exp: number;
  }

  export type Configuration = Record<string, unknown>;

  export class Provider {
    constructor(issuer: string, configuration?: Configuration);
    proxy: boolean;
    issuer: string;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    on(event: string, listener: (...args: unknown[]) => void): this;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    AccessToken: {
      find(token: string, options?: { ignoreExpiration?: boolean }): Promise<AccessTokenInfo | undefined>;
    };
    Client: { find(id: string): Promise<ClientInfo | undefined> };
    Grant: {
      new (input: { accountId: string; clientId: string }): GrantInstance;
      find(id: string): Promise<GrantInstance | undefined>;
    };
  }

  export const errors: {
    InvalidTarget: new (description?: string) => Error;
    [name: string]: new (...args: unknown[]) => Error;
  };

  export default Provider;
}
