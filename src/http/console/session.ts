import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { Account, ApiKeyRecord } from '../../domain/account.js';
import type { ConsoleSession } from '../../domain/console-session.js';
import { AppError } from '../../domain/errors/index.js';
import { sameSecret } from '../../face/auth.js';
import type { Services } from '../../operations/types.js';

/**
 * Web console sessions (issue 19). Signing in exchanges the API key for a random 256-bit token set in an HttpOnly,
 * SameSite=Strict cookie. Over https it is `__Host-cds_session` (Secure, Path=/, no Domain: a browser takes it only
 * from this very host over https, so a sibling subdomain or a plain-http page cannot plant or overwrite it) and only
 * that name is read; over plain http on a loopback address (where browsers refuse Secure cookies and so the prefix)
 * it is `cds_session`, scoped to /app. The page never holds the key nor the token. The store keeps the token's
 * SHA-256 only. Every state-changing console request also carries the session's CSRF token in a header: an HMAC of the
 * session token under the service secret, so nothing more is stored and it is compared in constant time.
 */
export const SESSION_COOKIE = 'cds_session';
/** The session cookie's name over https: the `__Host-` prefix binds it to this host, Secure, with Path=/. */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
export const CSRF_HEADER = 'X-CSRF-Token';
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

/** Who a console request acts for: the session, its account and the key it carries (none after revoking it). */
export interface ConsoleCaller {
  token: string;
  session: ConsoleSession;
  account: Account;
  key: ApiKeyRecord | undefined;
}

export const newSessionToken = (): string => randomBytes(32).toString('base64url');
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');
export const csrfTokenOf = (secret: string, token: string): string =>
  createHmac('sha256', secret).update(`console-csrf:${token}`).digest('base64url');

/** The session token of the request's cookie (the name this transport sets), when well formed. */
export function sessionTokenOf(services: Services, ctx: Context): string | undefined {
  const wanted = cookieOf(services, ctx).name;
  for (const part of ctx.get('Cookie').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === wanted) {
      const value = rest.join('=');
      return TOKEN_RE.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/** Secure cookies when the service is reached over https (directly, or as its public URL says behind a proxy). */
function secureTransport(services: Services, ctx: Context): boolean {
  return ctx.protocol === 'https' || services.config.publicUrl.toLowerCase().startsWith('https:');
}

/** The session cookie's name and attributes on this transport. */
function cookieOf(services: Services, ctx: Context): { name: string; flags: string[] } {
  return secureTransport(services, ctx)
    ? { name: SECURE_SESSION_COOKIE, flags: ['Path=/', 'HttpOnly', 'SameSite=Strict', 'Secure'] }
    : { name: SESSION_COOKIE, flags: ['Path=/app', 'HttpOnly', 'SameSite=Strict'] };
}

export function setSessionCookie(services: Services, ctx: Context, token: string, expiresAt: Date): void {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - services.clock.now().getTime()) / 1000));
  const { name, flags } = cookieOf(services, ctx);
  ctx.append('Set-Cookie', `${name}=${token}; ${[...flags, `Max-Age=${maxAge}`].join('; ')}`);
  // A session cookie of the unprefixed name, set by an earlier build over https, is no longer read: let it go.
  if (name !== SESSION_COOKIE)
    ctx.append('Set-Cookie', `${SESSION_COOKIE}=; Path=/app; HttpOnly; SameSite=Strict; Secure; Max-Age=0`);
}

export function clearSessionCookie(services: Services, ctx: Context): void {
  const { name, flags } = cookieOf(services, ctx);
  ctx.append('Set-Cookie', `${name}=; ${[...flags, 'Max-Age=0'].join('; ')}`);
}

/**
 * The request's live session, or undefined. A session whose key was revoked (by the API, the CLI or another
 * session) is ended here, as the key itself would be refused; a session that revoked its own key keeps only the
 * right to create the next one, and is ended as soon as the account has an active key it did not create.
 */
export async function resolveSession(services: Services, ctx: Context): Promise<ConsoleCaller | undefined> {
  const token = sessionTokenOf(services, ctx);
  if (!token) return undefined;
  const state = services.state;
  const session = await state.getSession(tokenHash(token), services.clock.now());
  if (!session) return undefined;
  const account = await state.getAccount(session.accountId);
  const keys = account ? await state.listKeys(account.id) : [];
  const active = keys.find((k) => k.revokedAt === null);
  const key = session.keyId === null ? undefined : keys.find((k) => k.id === session.keyId && k.revokedAt === null);
  if (!account || (session.keyId !== null && !key) || (session.keyId === null && active)) {
    await state.deleteSession(session.tokenHash);
    return undefined;
  }
  return { token, session, account, key };
}

/** The console's refusal of a request without a live session. */
export function noSession(): AppError {
  return new AppError('auth.invalid_key', 'No console session, or it expired or ended.', {
    hint: 'Sign in again at /app/sign-in with the API key.',
  });
}

/** State-changing console requests must carry the session's CSRF token. */
export function checkCsrf(services: Services, ctx: Context, caller: ConsoleCaller): void {
  const sent = ctx.get(CSRF_HEADER);
  if (!sent || !sameSecret(sent, csrfTokenOf(services.secret, caller.token))) {
    throw new AppError('request.origin_refused', 'The console request carries no valid CSRF token.', {
      hint: 'Reload the console page; state-changing calls need the X-CSRF-Token header of the session.',
    });
  }
}

/**
 * Sign-in has no session yet: a browser request from another origin is refused (login CSRF). The service's own origin
 * is the one the request names in `Host`, or its public URL (`CDS_PUBLIC_URL`, as a proxy that rewrites `Host` serves
 * it).
 */
export function checkSameOrigin(ctx: Context, publicUrl: string): void {
  const origin = ctx.get('Origin');
  const site = ctx.get('Sec-Fetch-Site');
  const host = ctx.get('Host');
  const sameOrigin = !origin || origin.replace(/^https?:\/\//i, '') === host || origin === originOf(publicUrl);
  if (!sameOrigin || (site && site !== 'same-origin' && site !== 'none')) {
    throw new AppError('request.origin_refused', 'Sign-in is accepted only from the console page itself.', {
      hint: 'Open /app/sign-in on this service.',
    });
  }
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
