import type { Account, ApiKeyRecord } from '../domain/account.js';
import type { Services } from '../operations/types.js';
import { MCP_SCOPE, oauthServer } from './provider.js';
import { parseSubject } from './subject.js';

/** The OAuth client a request acts through (the request log names it where a key prefix would be). */
export interface OAuthClientRef {
  id: string;
  name: string | null;
}

/** API keys start with this; anything else sent as Bearer at /mcp is looked up as an OAuth access token. */
export const API_KEY_PREFIX = 'cds_';

/** What a valid access token for /mcp that was not granted the `mcp` scope resolves to. */
export const INSUFFICIENT_SCOPE = 'insufficient_scope';

/**
 * The caller of an OAuth access token at /mcp, or undefined (unknown, expired, revoked, for another resource, or its
 * key revoked), or INSUFFICIENT_SCOPE (a token for /mcp whose scopes do not include `mcp`). Checked on every request: the token's audience must be this service's /mcp, and the key it was
 * granted under must still be active; the account (suspended or not) is then handled exactly as the key's would be.
 */
export async function resolveAccessToken(
  services: Services,
  token: string,
): Promise<{ account: Account; key: ApiKeyRecord; client: OAuthClientRef } | typeof INSUFFICIENT_SCOPE | undefined> {
  if (token.startsWith(API_KEY_PREFIX) || !/^[A-Za-z0-9_-]{20,200}$/.test(token)) return undefined;
  const { provider, resource } = await oauthServer(services);
  const found = await provider.AccessToken.find(token);
  if (!found || found.isExpired) return undefined;
  const audiences = Array.isArray(found.aud) ? found.aud : found.aud ? [found.aud] : [];
  if (!audiences.includes(resource)) return undefined;
  if (!(found.scope ?? '').split(' ').includes(MCP_SCOPE)) return INSUFFICIENT_SCOPE;
  const who = parseSubject(found.accountId);
  if (!who) return undefined;
  const account = await services.state.getAccount(who.accountId);
  if (!account) return undefined;
  const key = (await services.state.listKeys(account.id)).find((k) => k.id === who.keyId && k.revokedAt === null);
  if (!key) return undefined;
  const client = await provider.Client.find(found.clientId);
  return { account, key, client: { id: found.clientId, name: (client?.clientName as string | undefined) ?? null } };
}
