/**
 * One record of the OAuth authorization server (src/oauth, oidc-provider's models: Client, Grant, Session,
 * Interaction, AuthorizationCode, AccessToken, RefreshToken, …) as the state store keeps it. The store knows nothing
 * of OAuth: it keeps the payload as JSON by (model, id) until `expiresAt`, indexed by grant, by uid and by account.
 * Bearer values (tokens, codes) arrive here already hashed (src/oauth/adapter.ts).
 */
export interface OAuthRecord {
  model: string;
  id: string;
  payload: Record<string, unknown>;
  /** The grant the record belongs to (tokens and codes): revoking the grant deletes them all. */
  grantId: string | null;
  /** A second lookup name (the provider's Session uid). */
  uid: string | null;
  /** The service account the record belongs to (grants), for the console's list of connected clients. */
  accountId: string | null;
  /** RFC 3339; null: kept until destroyed. */
  expiresAt: string | null;
}

/** A record as read back: the payload and when it was consumed (a used authorization code or rotated token). */
export interface OAuthStored {
  model: string;
  id: string;
  payload: Record<string, unknown>;
  grantId: string | null;
  accountId: string | null;
  expiresAt: string | null;
  consumedAt: string | null;
}

/** By the payload's issue time (seconds), then id: the same order in every adapter. */
export const oldestFirst = (a: OAuthStored, b: OAuthStored): number =>
  Number(a.payload.iat ?? 0) - Number(b.payload.iat ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
