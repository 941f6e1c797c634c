import type { Context, Middleware } from 'koa';
import { AppError, isAppError } from '../domain/errors/index.js';
import { sameSecret } from '../face/auth.js';
import { acquireSlot } from '../face/rate-limit.js';
import { checkSameOrigin, csrfTokenOf, resolveSession } from '../http/console/session.js';
import { signInWithKey } from '../http/console/sign-in.js';
import { readLimited } from '../http/read-limited.js';
import type { Services } from '../operations/types.js';
import { MemoryRateLimiter } from '../state/memory/rate-limiter.js';
import type { RateLimiter } from '../state/rate-limiter.js';
import { RedisRateLimiter } from '../state/redis/rate-limiter.js';
import { type ClientView, consentPage, messagePage, reloadPage, signInPage } from './authorize-page.js';
import { AUTHORIZE_PAGE, MCP_SCOPE, oauthServer } from './provider.js';
import { subjectOf } from './subject.js';

export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';
const AS_METADATA_PATHS = new Set(['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']);
const FORM_MAX_BYTES = 8192;

/** RFC 9728 metadata of /mcp: the resource, its authorization server (this service) and how to send a token. */
export async function protectedResourceMetadata(services: Services): Promise<Record<string, unknown>> {
  const { resource, issuer } = await oauthServer(services);
  return {
    resource,
    authorization_servers: [issuer],
    scopes_supported: [MCP_SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: 'Contact Data Service MCP server',
    resource_documentation: `${issuer}/docs`,
  };
}

/**
 * OAuth 2.1 for remote MCP clients (issue 39), mounted before the JSON body reader (the provider reads its own form
 * and JSON bodies): the protected-resource metadata (RFC 9728), the authorization server (oidc-provider: RFC 8414
 * metadata, RFC 7591 registration, authorization code with PKCE S256, token, revocation) under /oauth, and the
 * authorization page, a console page at /app/oauth/authorize/<uid> where a person signs in with the account's key
 * (the console's own sign-in) and approves or denies the client.
 */
export function oauthRoutes(services: Services): Middleware {
  return async (ctx, next) => {
    const path = ctx.path;
    if (path === PROTECTED_RESOURCE_PATH || path === `${PROTECTED_RESOURCE_PATH}/mcp`) {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && ctx.method !== 'OPTIONS') return next();
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.set('Cache-Control', 'public, max-age=300');
      if (ctx.method === 'OPTIONS') {
        ctx.set('Access-Control-Allow-Headers', 'MCP-Protocol-Version');
        ctx.status = 204;
        return;
      }
      ctx.body = await protectedResourceMetadata(services);
      return;
    }
    if (AS_METADATA_PATHS.has(path)) {
      // One metadata document for both names (RFC 8414 and OpenID discovery).
      return delegate(services, ctx, ctx.url.replace(path, '/.well-known/openid-configuration'));
    }
    if (path.startsWith('/oauth/')) {
      if (ctx.method === 'POST' && (path === '/oauth/register' || path === '/oauth/token')) {
        return withAddressLimit(services, ctx, path.slice('/oauth/'.length), () => delegate(services, ctx));
      }
      return delegate(services, ctx);
    }
    if (path.startsWith(`${AUTHORIZE_PAGE}/`)) return authorizePage(services, ctx);
    return next();
  };
}

/** Requests one client address may send to POST /oauth/register, and separately to POST /oauth/token, in 60 s. */
export const OAUTH_ADDRESS_PER_MINUTE = 30;
/** In-flight requests one address may have on one of those endpoints. */
const OAUTH_ADDRESS_CONCURRENT = 10;
const addressLimiters = new WeakMap<Services, RateLimiter>();

/**
 * The project's rate limiter (the same sliding window as the per-key limit; in Redis when the state lives there, so
 * every process of a deployment shares the count) keyed by endpoint and client address: registration and token
 * requests are not signed in with a key, so the address is what is limited. A refusal is 429 rate.limited with
 * Retry-After, before the provider sees the request.
 */
function addressLimiter(services: Services): RateLimiter {
  let limiter = addressLimiters.get(services);
  if (!limiter) {
    limiter = services.redis
      ? new RedisRateLimiter(services.redis, {
          prefix: `${services.config.redisPrefix}oauth-rate:`,
          perMinute: OAUTH_ADDRESS_PER_MINUTE,
          concurrent: OAUTH_ADDRESS_CONCURRENT,
        })
      : new MemoryRateLimiter(OAUTH_ADDRESS_PER_MINUTE, OAUTH_ADDRESS_CONCURRENT);
    addressLimiters.set(services, limiter);
  }
  return limiter;
}

async function withAddressLimit(services: Services, ctx: Context, endpoint: string, run: () => Promise<void>) {
  const release = await acquireSlot(addressLimiter(services), ctx, `${endpoint}:${ctx.ip}`, {
    subject: `to /oauth/${endpoint} from this address`,
  });
  try {
    await run();
  } finally {
    if (ctx.res.writableFinished || ctx.res.destroyed) release();
  }
}

/** Hands the request to oidc-provider; the URLs it writes are built from the public URL. */
async function delegate(services: Services, ctx: Context, url?: string): Promise<void> {
  const { provider } = await oauthServer(services);
  const pub = new URL(services.config.publicUrl);
  ctx.req.headers['x-forwarded-proto'] = pub.protocol.slice(0, -1);
  ctx.req.headers['x-forwarded-host'] = pub.host;
  if (url) ctx.req.url = url;
  ctx.respond = false;
  await provider.callback()(ctx.req, ctx.res);
}

/** The authorization page: GET shows sign-in or consent; POST …/sign-in and POST …/confirm act on it. */
async function authorizePage(services: Services, ctx: Context): Promise<void> {
  const m = /^\/app\/oauth\/authorize\/([A-Za-z0-9_-]{1,64})(?:\/(sign-in|confirm))?$/.exec(ctx.path);
  const version = services.build.version;
  pageHeaders(ctx, null);
  ctx.set('Cache-Control', 'no-store');
  const uid = m?.[1];
  const action = m?.[2];
  if (!uid || (action ? ctx.method !== 'POST' : ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
    ctx.status = 404;
    ctx.type = 'html';
    ctx.body = messagePage('Not found', 'There is no such authorization page.', version);
    return;
  }
  const { provider, resource } = await oauthServer(services);
  const pageUrl = `${AUTHORIZE_PAGE}/${uid}`;
  let details: Awaited<ReturnType<typeof provider.interactionDetails>>;
  try {
    details = await provider.interactionDetails(ctx.req, ctx.res);
  } catch {
    details = undefined as never;
  }
  if (!details || details.uid !== uid) {
    ctx.status = 400;
    ctx.type = 'html';
    ctx.body = messagePage(
      'This sign-in request expired',
      'The request is unknown, expired (after 10 minutes) or was opened in another browser.',
      version,
    );
    return;
  }
  const params = details.params;
  const client = await provider.Client.find(params.client_id ?? '');
  const view: ClientView = {
    name: (client?.clientName as string | undefined) ?? params.client_id ?? 'Unknown client',
    clientId: params.client_id ?? '',
    redirect: params.redirect_uri ?? '',
    scopes: (params.scope ?? MCP_SCOPE).split(' ').filter(Boolean),
  };
  // Where the approval finally redirects (the client's redirect URI) must be an allowed form target.
  pageHeaders(ctx, formTarget(view.redirect));

  if (action === 'sign-in') {
    checkSameOrigin(ctx, services.config.publicUrl);
    const form = await readForm(ctx);
    try {
      await signInWithKey(services, ctx, (form.get('api_key') ?? '').trim());
    } catch (e) {
      if (!isAppError(e) || e.code !== 'auth.invalid_key') throw e;
      ctx.status = 401;
      ctx.type = 'html';
      ctx.body = signInPage(`${pageUrl}/sign-in`, view, e.message, version);
      return;
    }
    ctx.status = 303;
    ctx.redirect(pageUrl);
    return;
  }

  const caller = await resolveSession(services, ctx);
  if (action === 'confirm') {
    checkSameOrigin(ctx, services.config.publicUrl);
    const form = await readForm(ctx);
    if (!caller?.key) {
      ctx.status = 303;
      ctx.redirect(pageUrl);
      return;
    }
    const sent = form.get('csrf_token') ?? '';
    if (!sent || !sameSecret(sent, csrfTokenOf(services.secret, caller.token))) {
      throw new AppError('request.origin_refused', 'The authorization form carries no valid CSRF token.', {
        hint: 'Reload the authorization page and approve again.',
      });
    }
    let result: Record<string, unknown>;
    if (form.get('decision') === 'approve') {
      const sub = subjectOf(caller.account.id, caller.key.id);
      const clientId = params.client_id ?? '';
      const existing = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
      const grant =
        existing && existing.accountId === sub && existing.clientId === clientId
          ? existing
          : new provider.Grant({ accountId: sub, clientId });
      // What the request asks for, and whatever else the provider found missing: the page showed all of it.
      const missing = details.prompt.details as {
        missingOIDCScope?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      const oidcScopes: string[] = view.scopes.filter((s) => ['openid', 'offline_access', MCP_SCOPE].includes(s));
      for (const s of missing.missingOIDCScope ?? []) if (!oidcScopes.includes(s)) oidcScopes.push(s);
      if (oidcScopes.length > 0) grant.addOIDCScope(oidcScopes.join(' '));
      grant.addResourceScope(resource, MCP_SCOPE);
      for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
        grant.addResourceScope(indicator, scopes.join(' '));
      const grantId = await grant.save();
      result = { login: { accountId: sub }, consent: { grantId } };
    } else {
      result = { error: 'access_denied', error_description: 'The account holder denied the request.' };
    }
    const to = await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: false });
    ctx.status = 303;
    ctx.redirect(to);
    return;
  }

  ctx.type = 'html';
  if (!caller?.key) {
    // Arriving from the client's site, the console's SameSite=Strict cookie is not sent: one same-origin hop first.
    const site = ctx.get('Sec-Fetch-Site');
    if ((site === 'cross-site' || site === 'same-site') && ctx.query.hop === undefined) {
      ctx.body = reloadPage(`${pageUrl}?hop=1`);
      return;
    }
    ctx.body = signInPage(`${pageUrl}/sign-in`, view, null, version);
    return;
  }
  const keyPrefix = caller.key.prefix;
  ctx.body = consentPage(
    `${pageUrl}/confirm`,
    view,
    { name: caller.account.name, id: caller.account.id, keyPrefix },
    csrfTokenOf(services.secret, caller.token),
    version,
  );
}

/** The CSP source of the client's redirect URI: its origin (http/https) or its scheme (a native app's). */
function formTarget(redirect: string): string | null {
  try {
    const u = new URL(redirect);
    if (u.protocol === 'http:' || u.protocol === 'https:') return u.origin;
    return /^[a-z][a-z0-9+.-]*:$/i.test(u.protocol) ? u.protocol : null;
  } catch {
    return null;
  }
}

function pageHeaders(ctx: Context, target: string | null): void {
  ctx.set(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'self'; img-src 'self' data:; " +
      `form-action 'self'${target ? ` ${target}` : ''}; frame-ancestors 'none'; base-uri 'none'`,
  );
  ctx.set('X-Content-Type-Options', 'nosniff');
  // Not no-referrer: a browser sends `Origin: null` with a form posted under it, and sign-in checks the origin.
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('X-Frame-Options', 'DENY');
}

async function readForm(ctx: Context): Promise<URLSearchParams> {
  const tooLarge = () => new AppError('request.invalid', `The form is larger than ${FORM_MAX_BYTES} bytes.`);
  const body = await readLimited(ctx.req, FORM_MAX_BYTES, tooLarge);
  return new URLSearchParams(body.toString('utf8'));
}
