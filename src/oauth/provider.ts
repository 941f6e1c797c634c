import type Provider from 'oidc-provider';
import type { Services } from '../operations/types.js';
import { StateAdapter } from './adapter.js';
import { cookieKeys, signingJwks } from './signing-key.js';
import { parseSubject } from './subject.js';

/** The MCP endpoint is the one protected resource; its URL is the audience of every access token. */
export const mcpResourceOf = (publicUrl: string): string => `${publicUrl}/mcp`;
/** The one scope a client asks for: use this account's MCP tools. */
export const MCP_SCOPE = 'mcp';
/** The authorization page of an interaction (a console page); the provider's interaction cookie is scoped to it. */
export const AUTHORIZE_PAGE = '/app/oauth/authorize';

export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  userinfo: '/oauth/userinfo',
  end_session: '/oauth/end-session',
  introspection: '/oauth/introspect',
  pushed_authorization_request: '/oauth/par',
  code_verification: '/oauth/device',
  device_authorization: '/oauth/device/auth',
  backchannel_authentication: '/oauth/backchannel',
} as const;

export interface OAuthServer {
  provider: Provider;
  /** `<publicUrl>/mcp`, the audience tokens must carry. */
  resource: string;
  issuer: string;
}

const servers = new WeakMap<Services, OAuthServer>();

type OidcModule = typeof import('oidc-provider');
let loading: Promise<OidcModule> | undefined;

/**
 * oidc-provider 8 (its runtime check accepts Node 18 and later LTS releases, so Node 20 starts it without a warning),
 * loaded at the first OAuth request (CLI commands never load it).
 */
function loadOidc(): Promise<OidcModule> {
  loading ??= import('oidc-provider');
  return loading;
}

/**
 * The service's OAuth 2.1 authorization server for remote MCP clients: oidc-provider over the state store, issuer
 * the public URL. Built at first use (the public URL is known once the server listens) and kept per Services.
 */
export async function oauthServer(services: Services): Promise<OAuthServer> {
  const issuer = services.config.publicUrl;
  const existing = servers.get(services);
  if (existing && existing.issuer === issuer) return existing;
  const { default: Provider, errors } = await loadOidc();
  const again = servers.get(services);
  if (again && again.issuer === issuer) return again;
  const resource = mcpResourceOf(issuer);
  const accessTokenTTL = services.config.oauthAccessTokenSeconds;
  const refreshTTL = services.config.oauthRefreshTokenDays * 86_400;
  const provider = new Provider(issuer, {
    adapter: (model: string) => new StateAdapter(model, () => services.state),
    clients: [],
    // Browser-based clients may call the token and registration endpoints from their redirect URIs' origins.
    clientBasedCORS: (_ctx: unknown, origin: string, client: { redirectUris: string[] }) =>
      origin !== 'null' && client.redirectUris.some((uri) => originOf(uri) === origin),
    jwks: signingJwks(services.secret),
    cookies: {
      keys: cookieKeys(services.secret),
      names: { session: 'cds_oauth_session', interaction: 'cds_oauth_interaction', resume: 'cds_oauth_resume' },
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'EdDSA',
    },
    enabledJWA: { idTokenSigningAlgValues: ['EdDSA'] },
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    responseTypes: ['code'],
    // `mcp` is also the resource server's scope (getResourceServerInfo below); listed here so clients may register it.
    scopes: ['openid', 'offline_access', MCP_SCOPE],
    claims: { openid: ['sub'] },
    // S256 for every client, public or confidential; plain is not offered (refused) and a request without a challenge
    // is refused.
    pkce: { methods: ['S256'], required: () => true },
    routes: OAUTH_ROUTES,
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, issueRegistrationAccessToken: false },
      // A client revokes only its own tokens (the provider refuses another client's token).
      revocation: { enabled: true },
      introspection: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      dPoP: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource gets tokens for /mcp, the only one there is.
        defaultResource: async () => resource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: unknown, indicator: string) => {
          if (indicator !== resource) {
            throw new errors.InvalidTarget(`This server issues tokens only for ${resource}.`);
          }
          return { scope: MCP_SCOPE, audience: resource, accessTokenTTL, accessTokenFormat: 'opaque' };
        },
      },
    },
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(t: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: () => true,
    expiresWithSession: async () => false,
    ttl: {
      AccessToken: accessTokenTTL,
      // An ID token (a client that asks for `openid`) lives as long as an access token.
      IdToken: accessTokenTTL,
      AuthorizationCode: 60,
      RefreshToken: refreshTTL,
      Grant: refreshTTL,
      Interaction: 600,
      Session: 600,
    },
    interactions: {
      url: async (_ctx: unknown, interaction: { uid: string }) => `${AUTHORIZE_PAGE}/${interaction.uid}`,
    },
    // The subject names the account and the key it was granted under; once that key is revoked it is no one.
    findAccount: async (_ctx: unknown, sub: string) => {
      const who = parseSubject(sub);
      if (!who) return undefined;
      const keys = await services.state.listKeys(who.accountId);
      if (!keys.some((k) => k.id === who.keyId && k.revokedAt === null)) return undefined;
      return { accountId: sub, claims: async () => ({ sub }) };
    },
    renderError: async (ctx: { type: string; body: unknown }, out: Record<string, string>) => {
      ctx.type = 'html';
      ctx.body = errorPage(out);
    },
  });
  // URLs the provider writes (metadata, redirects) are built from the public URL, as a proxy in front serves it.
  provider.proxy = true;
  const server = { provider, resource, issuer };
  servers.set(services, server);
  return server;
}

function originOf(uri: string): string | null {
  try {
    return new URL(uri).origin;
  } catch {
    return null;
  }
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function errorPage(out: Record<string, string>): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in failed · Contact Data Service</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="/app/assets/console.css"></head>
<body><main id="main" class="sign-in"><h1>Contact Data Service</h1><section class="card">
<h2>The client's sign-in request was refused</h2>
<p class="error" role="alert">${esc(out.error ?? 'error')}: ${esc(out.error_description ?? '')}</p>
<p>Start the connection again from the client. See /docs for how to connect an MCP client.</p>
</section></main></body></html>
`;
}
