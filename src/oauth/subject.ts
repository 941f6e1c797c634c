/**
 * The OAuth subject of a grant: the account and the API key the person signed in with on the authorization page
 * (`acc_…:key_…`). Every token of the grant acts for that account under that key: its credits, its rate limits, and
 * it ends when the key is revoked.
 */
export const subjectOf = (accountId: string, keyId: string): string => `${accountId}:${keyId}`;

export function parseSubject(sub: unknown): { accountId: string; keyId: string } | undefined {
  if (typeof sub !== 'string') return undefined;
  const m = /^([A-Za-z0-9_]+):([A-Za-z0-9_]+)$/.exec(sub);
  return m?.[1] && m[2] ? { accountId: m[1], keyId: m[2] } : undefined;
}
