/**
 * A web console session (http/console): the browser holds a random token in an HttpOnly cookie; the store keeps only
 * its SHA-256 (`tokenHash`), the account, the API key it was opened with and its expiry. The session has the rights of
 * that key: once the key is revoked elsewhere or the session expires, it is refused. `keyId` null: the session itself
 * revoked its key and may only create the next one (which it is then bound to) or sign out.
 */
export interface ConsoleSession {
  tokenHash: string;
  accountId: string;
  keyId: string | null;
  createdAt: string;
  expiresAt: string;
}
