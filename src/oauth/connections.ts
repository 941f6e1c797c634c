import { Router } from '@koa/router';
import type { Context } from 'koa';
import { AppError } from '../domain/errors/index.js';
import type { OAuthStored } from '../domain/oauth-record.js';
import { withRateLimit } from '../face/rate-limit.js';
import { checkCsrf, noSession, resolveSession } from '../http/console/session.js';
import type { Services } from '../operations/types.js';
import { oauthServer } from './provider.js';
import { parseSubject } from './subject.js';

/** One connected OAuth client of the account, as the console's Integrations page lists it. */
export interface ConnectedClient {
  client_id: string;
  client_name: string | null;
  redirect_uris: string[];
  scopes: string[];
  /** The key the grant was approved under (its prefix, as the console shows keys). */
  key_id: string;
  connected_at: string;
  expires_at: string | null;
}

const iso = (seconds: unknown): string | null =>
  typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : null;

function scopesOf(grant: OAuthStored): string[] {
  const p = grant.payload as { openid?: { scope?: string }; resources?: Record<string, string> };
  const all = [p.openid?.scope ?? '', ...Object.values(p.resources ?? {})].join(' ');
  return [...new Set(all.split(' ').filter(Boolean))];
}

/** The account's grants, one entry per client (its newest grant), oldest client first. */
export async function connectedClients(services: Services, accountId: string): Promise<ConnectedClient[]> {
  const grants = await services.state.oauthListByAccount(accountId, 'Grant', new Date());
  const { provider } = await oauthServer(services);
  const byClient = new Map<string, ConnectedClient>();
  for (const grant of grants) {
    const clientId = String(grant.payload.clientId ?? '');
    const who = parseSubject(grant.payload.accountId);
    if (!clientId || !who || who.accountId !== accountId) continue;
    const client = await provider.Client.find(clientId);
    byClient.set(clientId, {
      client_id: clientId,
      client_name: (client?.clientName as string | undefined) ?? null,
      redirect_uris: client?.redirectUris ?? [],
      scopes: scopesOf(grant),
      key_id: who.keyId,
      connected_at: iso(grant.payload.iat) ?? '',
      expires_at: grant.expiresAt,
    });
  }
  return [...byClient.values()];
}

/** Ends every grant of the client on this account: its refresh and access tokens stop working at once. */
export async function disconnectClient(services: Services, accountId: string, clientId: string): Promise<number> {
  const grants = await services.state.oauthListByAccount(accountId, 'Grant', new Date());
  let ended = 0;
  for (const grant of grants) {
    if (grant.payload.clientId !== clientId || parseSubject(grant.payload.accountId)?.accountId !== accountId) continue;
    await services.state.oauthRevokeGrant(grant.id);
    await services.state.oauthDestroy('Grant', grant.id);
    ended++;
  }
  return ended;
}

/**
 * The console's JSON routes for OAuth clients (Integrations page): GET /app/api/oauth/clients lists the account's
 * connected clients; DELETE /app/api/oauth/clients/<client_id> disconnects one (CSRF-checked, as every console
 * change). Another account's client id is not found (404 route.not_found), never revealed.
 */
export function oauthConsoleApi(services: Services): Router {
  const router = new Router({ prefix: '/app/api/oauth' });

  const session = async (ctx: Context) => {
    const caller = await resolveSession(services, ctx);
    if (!caller) throw noSession();
    return caller;
  };
  const limited = <T>(ctx: Context, limitId: string, run: () => Promise<T>) =>
    withRateLimit(services.rateLimiter, ctx, limitId, run);

  router.get('/clients', async (ctx) => {
    const caller = await session(ctx);
    const data = await limited(ctx, caller.key?.id ?? `console:${caller.account.id}`, () =>
      connectedClients(services, caller.account.id),
    );
    ctx.body = { ok: true, data };
  });

  router.delete('/clients/:clientId', async (ctx) => {
    const caller = await session(ctx);
    checkCsrf(services, ctx, caller);
    const clientId = ctx.params.clientId ?? '';
    const ended = await limited(ctx, caller.key?.id ?? `console:${caller.account.id}`, () =>
      disconnectClient(services, caller.account.id, clientId),
    );
    if (ended === 0) {
      throw new AppError('route.not_found', 'No connected client with this id on this account.', {
        hint: 'GET /app/api/oauth/clients lists the connected clients.',
      });
    }
    ctx.body = { ok: true, data: { client_id: clientId, disconnected: true } };
  });

  return router;
}
