/** The authorization page's HTML: a console page without script (forms only), in the console's stylesheet. */

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** What each scope lets the client do, as the page shows it. */
export const SCOPE_TEXT: Readonly<Record<string, string>> = {
  mcp:
    "Use this account's MCP tools at /mcp: count, search, export and enrich contacts and companies. Calls charge " +
    "the account's credits and count against its key's rate limits, as the API key itself does.",
  offline_access: 'Stay connected: renew its access without asking you again, until you disconnect it.',
  openid: 'Learn the account id it is connected to.',
};

export interface ClientView {
  name: string;
  clientId: string;
  redirect: string;
  scopes: string[];
}

function page(title: string, body: string, version: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Contact Data Service</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/app/assets/console.css?v=${esc(version)}">
</head>
<body data-page="/app/oauth/authorize">
<main id="main" class="sign-in"><h1>Contact Data Service</h1>
${body}
</main></body></html>
`;
}

function clientFacts(client: ClientView): string {
  const scopes = client.scopes
    .map((s) => `<li><code>${esc(s)}</code> — ${esc(SCOPE_TEXT[s] ?? 'Requested by the client.')}</li>`)
    .join('');
  return `<dl class="facts">
<dt>Client</dt><dd id="client-name">${esc(client.name)}</dd>
<dt>Client id</dt><dd><code>${esc(client.clientId)}</code></dd>
<dt>Returns to</dt><dd id="client-redirect"><code>${esc(client.redirect)}</code></dd>
</dl>
<h3>It asks to</h3><ul id="scopes">${scopes}</ul>`;
}

export function signInPage(action: string, client: ClientView, error: string | null, version: string): string {
  return page(
    'Connect a client',
    `<form id="oauth-sign-in" class="card" method="post" action="${esc(action)}">
<h2>Sign in to connect ${esc(client.name)}</h2>
${clientFacts(client)}
<p>Paste the account's API key to sign in; the client never sees the key. It gets its own tokens, which end when you
disconnect it on the Integrations page or revoke the key.</p>
<label for="api-key">API key</label>
<input id="api-key" name="api_key" type="password" autocomplete="off" spellcheck="false" required placeholder="cds_…">
<button type="submit" id="sign-in">Sign in</button>
${error ? `<p id="sign-in-error" class="error" role="alert">${esc(error)}</p>` : ''}
</form>`,
    version,
  );
}

export function consentPage(
  action: string,
  client: ClientView,
  account: { name: string; id: string; keyPrefix: string },
  csrf: string,
  version: string,
): string {
  return page(
    'Connect a client',
    `<form id="oauth-consent" class="card" method="post" action="${esc(action)}">
<h2>Connect ${esc(client.name)} to ${esc(account.name)}?</h2>
${clientFacts(client)}
<p>Signed in as <strong id="account-name">${esc(account.name)}</strong> (<code>${esc(account.id)}</code>) with key
<code>cds_${esc(account.keyPrefix)}…</code>. Only approve a client you started connecting yourself.</p>
<input type="hidden" name="csrf_token" value="${esc(csrf)}">
<button type="submit" name="decision" value="approve" id="approve">Approve</button>
<button type="submit" name="decision" value="deny" id="deny" class="secondary">Deny</button>
</form>`,
    version,
  );
}

export function messagePage(title: string, message: string, version: string): string {
  return page(
    title,
    `<section class="card"><h2>${esc(title)}</h2><p class="error" role="alert" id="oauth-message">${esc(message)}</p>
<p>Start the connection again from the MCP client.</p></section>`,
    version,
  );
}

/** A same-origin hop: a page reached from another site gets the console's SameSite=Strict cookie on the next load. */
export function reloadPage(url: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${esc(url)}">
<title>Contact Data Service</title></head><body><p><a href="${esc(url)}">Continue</a></p></body></html>
`;
}
