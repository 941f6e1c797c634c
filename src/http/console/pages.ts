import type { Context } from 'koa';

/** The console's pages: one shell each, the view drawn by web/app.js (no inline script or style anywhere). */
export const CONSOLE_PAGES: Readonly<Record<string, string>> = {
  '/app': 'Overview',
  '/app/integrations': 'Integrations',
  '/app/audience': 'Audience builder',
  '/app/audiences': 'Saved audiences',
  '/app/companies': 'Companies',
  '/app/enrich': 'Enrichment',
  '/app/exports': 'Exports',
  '/app/activity': 'Uploads and signals',
  '/app/logs': 'Logs',
  '/app/webhooks': 'Webhooks',
};

/**
 * Headers of every console page and asset: a strict Content Security Policy (scripts, styles and requests only from
 * this service; no inline code, no framing), no sniffing, no referrer.
 */
export function securityHeaders(ctx: Context): void {
  ctx.set(
    'Content-Security-Policy',
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
      "font-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Frame-Options', 'DENY');
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export function renderShell(path: string, title: string, version: string): string {
  const nav = Object.entries(CONSOLE_PAGES)
    .map(
      ([href, label]) =>
        `<a href="${href}"${href === path ? ' aria-current="page"' : ''}>${esc(label === 'Uploads and signals' ? 'Activity' : label)}</a>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Contact Data Service</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/app/assets/console.css?v=${esc(version)}">
<script type="module" src="/app/assets/app.js?v=${esc(version)}"></script>
</head>
<body data-page="${esc(path)}">
<a class="skip" href="#main">Skip to content</a>
<header class="top"><span class="brand">Contact Data Service</span>
<nav aria-label="Console">${nav}</nav>
<button type="button" id="sign-out" class="link">Sign out</button></header>
<main id="main" tabindex="-1"><h1>${esc(title)}</h1><div id="view" aria-live="polite"><p class="muted">Loading…</p></div></main>
</body></html>
`;
}

export function renderSignIn(version: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · Contact Data Service</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/app/assets/console.css?v=${esc(version)}">
<script type="module" src="/app/assets/sign-in.js?v=${esc(version)}"></script>
</head>
<body data-page="/app/sign-in">
<main id="main" class="sign-in"><h1>Contact Data Service</h1>
<form id="sign-in-form" class="card" method="post" action="/app/sign-in" novalidate>
<h2>Sign in</h2>
<p>Paste the account's API key once. The console keeps a session cookie instead; the key is not stored in the page.</p>
<label for="api-key">API key</label>
<input id="api-key" name="api_key" type="password" autocomplete="off" spellcheck="false" required placeholder="cds_…">
<button type="submit">Sign in</button>
<p id="sign-in-error" class="error" role="alert"></p>
</form></main></body></html>
`;
}
