import type { Context } from 'koa';
import type { Account, ApiKeyRecord } from '../../domain/account.js';
import { AppError } from '../../domain/errors/index.js';
import { signInAttempt } from '../../face/sign-in-throttle.js';
import type { Services } from '../../operations/types.js';
import { newSessionToken, sessionTokenOf, setSessionCookie, tokenHash } from './session.js';

/**
 * Signing in with the account's API key: the one code path of every key sign-in in a browser (the console's
 * POST /app/api/session and the OAuth authorization page), so a throttle of sign-in attempts set here covers both.
 * Checks the key, replaces the browser's previous session (a new token each time: no fixation) and sets the cookie.
 * The caller checks the request's origin first.
 */
export async function signInWithKey(
  services: Services,
  ctx: Context,
  secret: string,
): Promise<{ token: string; expiresAt: Date; account: Account; key: ApiKeyRecord }> {
  const now = services.clock.now();
  // The one sign-in throttle (face/sign-in-throttle.ts): per address and key prefix, shared in Redis mode.
  const found = await signInAttempt(services, ctx.ip, secret, async () => {
    const key = secret ? await services.state.authenticate(secret, now) : undefined;
    if (!key)
      throw new AppError('auth.invalid_key', 'The API key is unknown or revoked.', {
        hint: 'Paste the key exactly as it was shown when it was created.',
      });
    return key;
  });
  const previous = sessionTokenOf(services, ctx);
  if (previous) await services.state.deleteSession(tokenHash(previous));
  const token = newSessionToken();
  const expiresAt = new Date(now.getTime() + services.config.consoleSessionMinutes * 60_000);
  await services.state.createSession({
    tokenHash: tokenHash(token),
    accountId: found.account.id,
    keyId: found.key.id,
    createdAt: now.toISOString(),
    expiresAt: expiresAt.toISOString(),
  });
  setSessionCookie(services, ctx, token, expiresAt);
  return { token, expiresAt, account: found.account, key: found.key };
}
