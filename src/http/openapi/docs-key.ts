/**
 * The /docs page's only script: a link from the console (`/docs#key=…`) fills the caller's API key into the
 * page's commands. The key stays in the browser: a URL fragment is never sent to the server, and the script
 * removes it from the address bar at once. Anything that does not look like a key is ignored, so a crafted link
 * cannot put other text into a command someone copies.
 */

/** The key a `#key=…` fragment carries, when it looks like an API key; else null. */
export function keyFromHash(hash: string): string | null {
  const m = /^#(?:[^&]*&)*key=([^&]*)/.exec(hash);
  if (!m) return null;
  let key: string;
  try {
    key = decodeURIComponent(m[1] ?? '');
  } catch {
    return null;
  }
  return /^[A-Za-z0-9_-]{8,200}$/.test(key) ? key : null;
}

/** Puts the key in place of `$CDS_API_KEY` in each snippet; answers how many changed. */
export function fillKey(snippets: Iterable<{ textContent: string | null }>, key: string): number {
  let changed = 0;
  for (const el of snippets) {
    const text = el.textContent ?? '';
    if (!text.includes('$CDS_API_KEY')) continue;
    el.textContent = text.split('$CDS_API_KEY').join(key);
    changed++;
  }
  return changed;
}

/** The script served at /docs/key.js: the two functions above and the lines that run them on the page. */
export function docsKeyScript(): string {
  return `'use strict';
${keyFromHash.toString()}
${fillKey.toString()}
(() => {
  const key = keyFromHash(location.hash);
  if (!key) return;
  history.replaceState(null, '', location.pathname + location.search);
  const n = fillKey(document.querySelectorAll('code[data-snippet]'), key);
  const note = document.getElementById('key-note');
  if (note && n > 0) note.textContent = 'The commands below carry the API key the console passed to this page (it stays in your browser).';
})();
`;
}
