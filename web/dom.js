/**
 * A tiny DOM helper for the console: elements are built with textContent only (never innerHTML), so nothing a
 * server or a user typed is ever parsed as markup.
 */

/** h('button', { class: 'x', on: { click } , type: 'button' }, 'Label', child…) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'on') for (const [event, fn] of Object.entries(value)) el.addEventListener(event, fn);
    else if (name === 'class') el.className = value;
    else if (name === 'text') el.textContent = String(value);
    else if (name === 'value') el.value = value;
    else if (name === 'checked') el.checked = Boolean(value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Number.POSITIVE_INFINITY)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export const fmt = (n) => (typeof n === 'number' ? n.toLocaleString('en') : String(n ?? '—'));

/** An RFC 3339 instant as `2026-11-25 17:50 UTC`. */
export function when(iso) {
  if (!iso) return '—';
  if (String(iso).startsWith('9999')) return 'never';
  return `${String(iso).slice(0, 16).replace('T', ' ')} UTC`;
}

/** A button that copies the text `get()` returns and says so (for screen readers too). */
export function copyButton(get, label = 'Copy') {
  const button = h('button', { type: 'button', class: 'secondary' }, label);
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(get());
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Select and copy';
    }
    setTimeout(() => {
      button.textContent = label;
    }, 2000);
  });
  return button;
}

/** A table from headers and rows of cells (strings or nodes), in a wrapper that scrolls on narrow screens. */
export function table(caption, headers, rows, attrs = {}) {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      attrs,
      caption ? h('caption', {}, caption) : null,
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          headers.map((t) => h('th', { scope: 'col' }, t)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((cells) =>
          h(
            'tr',
            {},
            cells.map((c) => h('td', {}, c)),
          ),
        ),
      ),
    ),
  );
}

export function errorText(e) {
  return e?.message ? `${e.message}${e.hint ? ` ${e.hint}` : ''}` : String(e);
}

/** A "label: value" pair list. */
export function facts(pairs, attrs = {}) {
  return h(
    'dl',
    { class: 'facts', ...attrs },
    pairs.map(([label, value, testid]) => [
      h('dt', {}, label),
      h('dd', testid ? { 'data-testid': testid } : {}, value),
    ]),
  );
}
