import { call } from '../api.js';
import { clear, errorText, fmt, h, when } from '../dom.js';
import { GROUPS, wordsOf } from '../filter-labels.js';
import { failure, historyChart } from '../widgets.js';

/**
 * Saved audiences: the list (newest first, paged), and one audience (?id=) with its filter in words, its count on
 * each data release it was counted on (a small chart), a free count now, the way back into the builder, rename and
 * delete.
 */
export async function render(view) {
  const id = new URLSearchParams(location.search).get('id');
  if (id) return detail(view, id);
  const list = h('div', { 'data-testid': 'audiences' });
  const more = h('button', { type: 'button', class: 'secondary', hidden: true }, 'More');
  let cursor = null;
  const rows = [];
  const load = async () => {
    const res = await call('audiences.list', { limit: 50, ...(cursor ? { cursor } : {}) });
    rows.push(...res.data);
    await valueLabels(res.data.map((a) => a.filter));
    cursor = res.page?.next_cursor ?? null;
    more.hidden = !cursor;
    if (!rows.length) {
      clear(
        list,
        h(
          'p',
          { class: 'empty', 'data-testid': 'audiences-empty' },
          'No saved audiences. Build one in the ',
          h('a', { href: '/app/audience' }, 'Audience builder'),
          ' and save it.',
        ),
      );
      return;
    }
    clear(
      list,
      h(
        'ul',
        { class: 'plain-list' },
        rows.map((a) =>
          h(
            'li',
            { class: 'card list-item', 'data-id': a.id },
            h('a', { href: `/app/audiences?id=${encodeURIComponent(a.id)}`, class: 'strong' }, a.name),
            h('span', { class: 'muted' }, filterWords(a.filter)),
            h(
              'span',
              {},
              a.last_count ? `${fmt(a.last_count.count)} contacts on ${a.last_count.release}` : 'not counted yet',
            ),
            h('span', { class: 'muted' }, `updated ${when(a.updated_at)}`),
          ),
        ),
      ),
    );
  };
  more.addEventListener('click', load);
  view.append(list, more);
  await load();
}

async function detail(view, id) {
  const box = h('div', {});
  view.append(h('p', {}, h('a', { href: '/app/audiences' }, '← All saved audiences')), box);
  let a;
  try {
    a = (await call('audiences.get', { id })).data;
  } catch (e) {
    box.append(h('p', { class: 'error', role: 'alert' }, errorText(e)));
    return;
  }
  await valueLabels([a.filter]);
  const chart = h('div', { 'data-testid': 'history-box' });
  const now = h('output', { 'data-testid': 'audience-count' }, a.last_count ? fmt(a.last_count.count) : '—');
  const drawHistory = (points) =>
    clear(
      chart,
      points.length
        ? historyChart(points)
        : h('p', { class: 'empty' }, 'Not counted yet: count it now to start its history.'),
    );
  const count = h('button', { type: 'button', id: 'count-audience' }, 'Count now (free)');
  const countOut = h('div', { 'aria-live': 'polite' });
  count.addEventListener('click', async () => {
    count.disabled = true;
    try {
      const res = (await call('audiences.count', { id }, 'POST')).data;
      now.textContent = fmt(res.count);
      now.dataset.count = String(res.count);
      if (res.audience?.history) drawHistory(res.audience.history);
      clear(countOut);
    } catch (e) {
      clear(countOut, failure(e));
    } finally {
      count.disabled = false;
    }
  });
  const rename = h('input', { id: 'rename', type: 'text', maxlength: 100, value: a.name });
  const renameForm = h(
    'form',
    { class: 'inline' },
    h('label', { for: 'rename' }, 'Name'),
    rename,
    h('button', { type: 'submit', class: 'secondary' }, 'Rename'),
  );
  const title = h('h2', { 'data-testid': 'audience-title' }, a.name);
  renameForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const res = await call('audiences.update', { id, name: rename.value.trim() }, 'PATCH');
      title.textContent = res.data.name;
    } catch (err) {
      renameForm.append(failure(err));
    }
  });
  const remove = h('button', { type: 'button', class: 'danger' }, 'Delete…');
  const confirm = h(
    'div',
    { class: 'confirm', hidden: true },
    h('p', {}, `Delete "${a.name}" and its history? Exports made from it are kept.`),
  );
  const yes = h('button', { type: 'button', class: 'danger' }, 'Yes, delete');
  const no = h('button', { type: 'button', class: 'secondary' }, 'Keep it');
  confirm.append(yes, no);
  remove.addEventListener('click', () => {
    confirm.hidden = false;
  });
  no.addEventListener('click', () => {
    confirm.hidden = true;
  });
  yes.addEventListener('click', async () => {
    try {
      await call('audiences.delete', { id }, 'DELETE');
      location.assign('/app/audiences');
    } catch (e) {
      confirm.append(failure(e));
    }
  });
  box.append(
    h(
      'section',
      { class: 'card', 'data-id': a.id },
      title,
      a.description ? h('p', {}, a.description) : null,
      h('p', { 'data-testid': 'audience-filter' }, filterWords(a.filter)),
      h('p', { class: 'big' }, now, ' contacts', a.last_count ? ` on ${a.last_count.release}` : ''),
      h(
        'div',
        { class: 'row' },
        count,
        h(
          'a',
          { href: `/app/audience?audience=${encodeURIComponent(a.id)}`, class: 'button-link' },
          'Open in the builder',
        ),
      ),
      countOut,
      h('h3', {}, 'Count per data release'),
      chart,
      renameForm,
      remove,
      confirm,
    ),
  );
  drawHistory(a.history ?? []);
}

/** Labels of closed-list values by `${column}\u0000${value}`, read from the values routes as filters need them. */
const LABELS = new Map();
let schemaKeys;

/** Loads the labels of the closed-list values the filters name (one values call per column, at most 1,000). */
async function valueLabels(filters) {
  schemaKeys ??= (await call('contacts.schema')).data.filter_keys;
  const columns = new Set();
  for (const f of filters) {
    for (const [key, value] of Object.entries(f ?? {})) {
      const route = key === 'where' ? (value?.field === 'signals' ? '/signals/values' : null) : routeOf(key);
      if (route) columns.add(route.split('/').at(-2));
    }
  }
  await Promise.all(
    [...columns]
      .filter((c) => !LABELS.has(`${c}\u0000`))
      .map(async (column) => {
        LABELS.set(`${column}\u0000`, '');
        const res = await call('contacts.values', { column, limit: 1000 }).catch(() => undefined);
        for (const v of res?.data.values ?? []) LABELS.set(`${column}\u0000${v.value}`, v.label);
      }),
  );
}
/** A filter key as the schema route describes it (with the catalog's words), or the bare key if unknown. */
const keyOf = (key) => schemaKeys?.find((k) => k.key === key) ?? { key, description: key };
const routeOf = (key) => keyOf(key).values_route ?? null;
const labelOf = (key, v) => {
  const route = key === 'where' ? '/signals/values' : routeOf(key);
  return (route && LABELS.get(`${route.split('/').at(-2)}\u0000${v}`)) || v;
};

/** A filter in words: "Country: United States · Seniority: Senior individual contributor". */
export function filterWords(filter) {
  // In the builder's order (its groups, then the catalog's order of the keys), whatever order it was built in.
  const rank = (key) => {
    const group = key === 'where' ? 'signals' : wordsOf(keyOf(key)).group;
    const i = schemaKeys?.findIndex((k) => k.key === key) ?? -1;
    return GROUPS.findIndex((g) => g.id === group) * 1000 + (i < 0 ? 999 : i);
  };
  const entries = Object.entries(filter ?? {}).sort(([a], [b]) => rank(a) - rank(b));
  const parts = entries.map(([key, value]) => {
    if (key === 'where')
      return value?.field === 'signals'
        ? `Signal: ${[]
            .concat(value.value)
            .map((v) => labelOf('where', v))
            .join(', ')}`
        : 'Advanced condition';
    const label = wordsOf(keyOf(key)).label;
    if (Array.isArray(value)) return `${label}: ${value.map((v) => labelOf(key, v)).join(', ')}`;
    if (typeof value === 'boolean') return `${label}: ${value ? 'yes' : 'no'}`;
    return `${label}: ${value}`;
  });
  return parts.length ? parts.join(' · ') : 'Every contact (no filter)';
}
