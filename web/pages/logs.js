import { call } from '../api.js';
import { clear, errorText, fmt, h, when } from '../dom.js';
import { openDrawer } from '../widgets.js';

/**
 * Logs: the account's last requests (REST, MCP tools, console), newest first, filtered by status and route, paged by
 * cursor; a request's detail in a drawer; a request found by its request id (the X-Request-Id of an answer).
 */
export async function render(view) {
  const status = h(
    'select',
    { id: 'log-status' },
    [
      ['', 'Any status'],
      ['2xx', 'Succeeded (2xx)'],
      ['4xx', 'Refused (4xx)'],
      ['5xx', 'Failed (5xx)'],
    ].map(([v, t]) => h('option', { value: v }, t)),
  );
  const route = h('input', { id: 'log-route', type: 'text', placeholder: '/v1/contacts/search or find_contacts' });
  const filters = h(
    'form',
    { class: 'inline', 'aria-label': 'Filter requests' },
    h('label', { for: 'log-status' }, 'Status'),
    status,
    h('label', { for: 'log-route' }, 'Route or tool'),
    route,
    h('button', { type: 'submit', class: 'secondary' }, 'Filter'),
  );
  const rid = h('input', { id: 'log-request-id', type: 'search', spellcheck: 'false', placeholder: 'req_…' });
  const find = h(
    'form',
    { class: 'inline', role: 'search' },
    h('label', { for: 'log-request-id' }, 'Request id'),
    rid,
    h('button', { type: 'submit' }, 'Find'),
  );
  const found = h('div', { 'aria-live': 'polite', 'data-testid': 'log-found' });
  const list = h('div', { 'data-testid': 'log-list' });
  const older = h('button', { type: 'button', class: 'secondary', hidden: true, id: 'log-older' }, 'Older requests');
  let cursor = null;
  let rows = [];

  const load = async (more) => {
    const input = {
      limit: 50,
      ...(status.value ? { status: status.value } : {}),
      ...(route.value.trim() ? { route: route.value.trim() } : {}),
      ...(more && cursor ? { cursor } : {}),
    };
    try {
      const res = await call('requests.list', input);
      rows = more ? [...rows, ...res.data] : res.data;
      cursor = res.page?.next_cursor ?? null;
      older.hidden = !cursor;
      clear(list, logTable(rows));
    } catch (e) {
      clear(list, h('p', { class: 'error', role: 'alert' }, errorText(e)));
    }
  };
  filters.addEventListener('submit', (e) => {
    e.preventDefault();
    load(false);
  });
  older.addEventListener('click', () => load(true));
  find.addEventListener('submit', async (e) => {
    e.preventDefault();
    const id = rid.value.trim();
    if (!id) return;
    try {
      const entry = (await call('requests.get', { request_id: id })).data;
      clear(found);
      showEntry(entry);
    } catch (err) {
      clear(found, h('p', { class: 'error', role: 'alert' }, errorText(err)));
    }
  });
  view.append(
    h(
      'section',
      { class: 'card' },
      h('h2', {}, 'Find a request'),
      h(
        'p',
        { class: 'muted' },
        'Every answer carries its request id: the X-Request-Id header, and request_id in its body.',
      ),
      find,
      found,
    ),
    h(
      'section',
      { class: 'card' },
      h('h2', {}, 'Recent requests'),
      h('p', { class: 'muted' }, 'The last 1,000 requests of this account; never their bodies.'),
      filters,
      list,
      older,
    ),
  );
  await load(false);
}

function logTable(rows) {
  if (!rows.length) return h('p', { class: 'empty', 'data-testid': 'log-empty' }, 'No requests match.');
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { 'data-testid': 'log-rows' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Time', 'Route or tool', 'Status', 'Credits', 'ms', 'Request'].map((t) => h('th', { scope: 'col' }, t)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((r) => {
          const open = h('button', { type: 'button', class: 'link-button' }, r.request_id);
          open.addEventListener('click', () => showEntry(r));
          return h(
            'tr',
            { 'data-request-id': r.request_id, class: r.status >= 400 ? 'failed' : '' },
            h('td', {}, when(r.at)),
            h('td', {}, routeOf(r)),
            h('td', {}, String(r.status), r.error_code ? ` ${r.error_code}` : ''),
            h('td', {}, fmt(r.credits ?? 0)),
            h('td', {}, fmt(r.duration_ms)),
            h('td', {}, open),
          );
        }),
      ),
    ),
  );
}

const routeOf = (r) => [r.method, r.route].filter(Boolean).join(' ') || '—';

/** The entry's members in words (any member the route adds later shows under its own name). */
const WORDS = {
  request_id: 'Request id',
  at: 'Time',
  face: 'Called through',
  method: 'Method',
  route: 'Route or tool',
  operation: 'Operation',
  status: 'Status',
  error_code: 'Error code',
  credits: 'Contact credits spent',
  duration_ms: 'Duration (ms)',
  key_prefix: 'Key',
  client: 'OAuth client',
};

function showEntry(r) {
  const value = (k, v) => {
    if (v === null || v === undefined) return '—';
    if (k === 'at') return when(v);
    if (k === 'key_prefix') return `cds_${v}…`;
    if (k === 'face') return { rest: 'the API', console: 'the console', mcp: 'an MCP tool call' }[v] ?? String(v);
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  };
  openDrawer(
    `Request ${r.request_id}`,
    Object.entries(r).map(([k, v]) => [WORDS[k] ?? k, value(k, v), k]),
  );
}
