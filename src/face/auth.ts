import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import type { Account, ApiKeyRecord } from '../domain/account.js';
import { AppError } from '../domain/errors/index.js';
import { INSUFFICIENT_SCOPE, type OAuthClientRef, resolveAccessToken } from '../oauth/bearer.js';
import { MCP_SCOPE } from '../oauth/provider.js';
import type { Family, Services } from '../operations/types.js';
import { signInAttempt } from './sign-in-throttle.js';

/**
 * Credentials (spec "Authentication"): family A takes `Authorization: Bearer <key>`; family B and MCP take
 * `X-API-Key: <key>` or the Bearer form. The operator token is the "other sign-in" of the console routes.
 */
export function credentialOf(ctx: Pick<Context, 'get'>, family: Family | 'mcp'): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('Authorization'))?.[1];
  if (bearer) return bearer;
  if (family !== 'A') {
    const header = ctx.get('X-API-Key').trim();
    if (header) return header;
  }
  return undefined;
}

const invalidKeyHint: Record<Family | 'mcp', string> = {
  A: 'Send Authorization: Bearer <API_KEY>.',
  B: 'Send X-API-Key: <API_KEY> or Authorization: Bearer <API_KEY>.',
  system: 'Send Authorization: Bearer <API_KEY>.',
  mcp: 'Add the X-API-Key header (or Authorization: Bearer) to the MCP client configuration.',
};

export async function authenticateKey(
  services: Services,
  ctx: Pick<Context, 'get'>,
  family: Family | 'mcp',
): Promise<{ account: Account; key: ApiKeyRecord }> {
  const secret = credentialOf(ctx, family);
  const found = secret ? await services.state.authenticate(secret, services.clock.now()) : undefined;
  if (!found) {
    throw new AppError('auth.invalid_key', secret ? 'The API key is unknown or revoked.' : 'No API key was sent.', {
      hint: invalidKeyHint[family],
    });
  }
  return found;
}

/**
 * /mcp's caller: an API key (X-API-Key or Bearer, exactly as before) or an OAuth access token of a remote MCP client
 * (Bearer; anything not shaped like a key is looked up as a token). A token acts for the account and key it was
 * granted under, and names its client. A refusal carries `WWW-Authenticate` pointing at the protected-resource
 * metadata (RFC 9728), where an OAuth client discovers how to sign in.
 */
export async function authenticateMcp(
  services: Services,
  ctx: Pick<Context, 'get' | 'set'>,
): Promise<{ account: Account; key: ApiKeyRecord; oauthClient?: OAuthClientRef }> {
  const secret = credentialOf(ctx, 'mcp');
  const viaToken = secret ? await resolveAccessToken(services, secret) : undefined;
  const metadata = `${services.config.publicUrl}/.well-known/oauth-protected-resource`;
  if (viaToken === INSUFFICIENT_SCOPE) {
    // A token this service issued for /mcp without the `mcp` scope: the challenge names the scope to ask for.
    ctx.set(
      'WWW-Authenticate',
      `Bearer resource_metadata="${metadata}", error="insufficient_scope", scope="${MCP_SCOPE}"`,
    );
    throw new AppError('auth.invalid_key', `The access token was not granted the ${MCP_SCOPE} scope.`, {
      hint: `Authorize the client again with scope=${MCP_SCOPE}.`,
    });
  }
  if (viaToken) return { account: viaToken.account, key: viaToken.key, oauthClient: viaToken.client };
  try {
    return await authenticateKey(services, ctx, 'mcp');
  } catch (e) {
    ctx.set('WWW-Authenticate', `Bearer resource_metadata="${metadata}"${secret ? ', error="invalid_token"' : ''}`);
    throw e;
  }
}

/** The operator routes accept only the operator token; an API key there answers 403 auth.oauth_required. */
export async function authenticateOperator(services: Services, ctx: Pick<Context, 'get' | 'ip'>): Promise<void> {
  const now = services.clock.now();
  const secret = credentialOf(ctx, 'B');
  // The one sign-in throttle (sign-in-throttle.ts): per address and token prefix, shared in Redis mode.
  await signInAttempt(services, ctx.ip, secret ?? '', async () => {
    const token = services.config.adminToken;
    if (secret && token && sameSecret(secret, token)) return;
    if (secret && (await services.state.authenticate(secret, now))) {
      throw new AppError('auth.oauth_required', 'Operator routes do not accept an API key.', {
        hint: 'Sign in with the operator token (CDS_ADMIN_TOKEN), or use the `cds accounts` command.',
      });
    }
    throw new AppError('auth.invalid_key', 'The operator token is missing or wrong.', {
      hint: 'Send Authorization: Bearer <CDS_ADMIN_TOKEN>.',
    });
  });
}

/** Constant-time comparison of two secrets of any length. */
export function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
