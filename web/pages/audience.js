import { call } from '../api.js';
import { clear, copyButton, errorText, fmt, h, table, when } from '../dom.js';

const PREVIEW_COLUMNS = ['name', 'title', 'company', 'country', 'seniority', 'work_email'];

/** The API route and MCP tool of each call the snippets show, with the arguments they take for the filter. */
const SNIPPETS = {
  count: { label: 'count (free)', path: '/v1/contacts/count', tool: 'count_matches', args: (filter) => ({ filter }) },
  search: {
    label: 'search (10 rows)',
    path: '/v1/contacts/search',
    tool: 'find_contacts',
    args: (filter) => ({ filter, limit: 10 }),
  },
  export: {
    label: 'export (100 rows)',
    path: '/v1/exports',
    tool: 'start_export',
    args: (filter) => ({ filter, max_rows: 100 }),
  },
};

/**
 * Audience builder: every family A filter key of the catalog (schema route), closed lists picked from the values
 * routes with their counts, free text, ranges and yes/no keys. The count follows the filter (debounced; counts are
 * free); a preview page of rows is an explicit action that states its cost; an export starts with max_rows and shows
 * its hold. The curl command and the MCP call of the current filter are kept next to it.
 */
export async function render(view, session) {
  const schema = (await call('contacts.schema')).data;
  const filter = {};
  const countOut = h('output', { id: 'live-count', 'data-testid': 'live-count', 'aria-live': 'polite' }, '…');
  const countNote = h('span', { class: 'muted' });
  const curl = h('pre', { 'data-testid': 'curl' }, h('code'));
  const mcp = h('pre', { 'data-testid': 'mcp-call' }, h('code'));
  let timer;
  let seq = 0;

  const kind = h(
    'select',
    { id: 'snippet-kind' },
    Object.keys(SNIPPETS).map((k) => h('option', { value: k }, SNIPPETS[k].label)),
  );
  const snippets = () => {
    const snippet = SNIPPETS[kind.value];
    const args = snippet.args(filter);
    curl.firstChild.textContent =
      `curl -s ${session.base_url}${snippet.path} \\\n  -H "Authorization: Bearer $CDS_API_KEY" \\\n` +
      `  -H "Content-Type: application/json" \\\n  -d '${JSON.stringify(args).replaceAll("'", "'\\''")}'`;
    mcp.firstChild.textContent = JSON.stringify({ tool: snippet.tool, arguments: args }, null, 2);
  };
  kind.addEventListener('change', snippets);
  const changed = () => {
    snippets();
    countNote.textContent = 'counting…';
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const mine = ++seq;
      try {
        const res = await call('contacts.count', { filter }, 'POST');
        if (mine !== seq) return;
        countOut.textContent = fmt(res.data.count);
        countOut.dataset.count = String(res.data.count);
        countNote.textContent = 'contacts match (counts are free)';
      } catch (e) {
        if (mine === seq) countNote.textContent = errorText(e);
      }
    }, 350);
  };
  const set = (key, value) => {
    const empty = value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
    if (empty) delete filter[key];
    else filter[key] = value;
    changed();
  };

  const form = h('form', { class: 'filters', 'aria-label': 'Filters' });
  form.addEventListener('submit', (e) => e.preventDefault());
  for (const key of schema.filter_keys) form.append(control(key, set));

  const summary = h(
    'section',
    { class: 'card sticky', 'aria-labelledby': 'count-title' },
    h('h2', { id: 'count-title' }, 'Audience'),
    h('p', { class: 'big' }, countOut, ' ', countNote),
    previewBox(filter),
    exportBox(filter),
    h('h3', {}, 'Same filter over the API'),
    h('div', { class: 'row' }, h('label', { for: 'snippet-kind' }, 'Call'), kind),
    curl,
    copyButton(() => curl.textContent, 'Copy curl'),
    h('h3', {}, 'Same filter as an MCP call'),
    mcp,
    copyButton(() => mcp.textContent, 'Copy MCP call'),
  );
  view.append(h('div', { class: 'builder' }, form, summary));
  changed();
}

/** One filter key's control, by its type; list keys with a values route get a picker with counts. */
function control(key, set) {
  const id = `f-${key.key}`;
  const label = h('label', { for: id }, key.key);
  const help = h('small', { id: `${id}-help`, class: 'muted' }, key.description);
  const field = (input) => h('div', { class: 'field', 'data-key': key.key }, label, input, help);
  if (key.type === 'boolean') {
    const select = h(
      'select',
      { id, 'aria-describedby': `${id}-help` },
      h('option', { value: '' }, 'any'),
      h('option', { value: 'true' }, 'yes'),
      h('option', { value: 'false' }, 'no'),
    );
    select.addEventListener('change', () => set(key.key, select.value === '' ? undefined : select.value === 'true'));
    return field(select);
  }
  if (key.type === 'integer' || key.type === 'month' || key.type === 'string') {
    const input = h('input', {
      id,
      'aria-describedby': `${id}-help`,
      type: key.type === 'integer' ? 'number' : key.type === 'month' ? 'month' : 'text',
      ...(key.type === 'integer' ? { min: 0, step: 1, inputmode: 'numeric' } : {}),
    });
    input.addEventListener('input', () => {
      const v = input.value.trim();
      set(key.key, v === '' ? undefined : key.type === 'integer' ? Number(v) : v);
    });
    return field(input);
  }
  if (key.values_route) return picker(key, set);
  const input = h('input', { id, type: 'text', 'aria-describedby': `${id}-help`, placeholder: 'comma-separated' });
  input.addEventListener('input', () =>
    set(
      key.key,
      input.value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  );
  return field(input);
}

/** A closed list: values fed by the values route (with counts), searched as one types, picked with checkboxes. */
function picker(key, set) {
  const id = `f-${key.key}`;
  const column = key.values_route.split('/').at(-2);
  const chosen = new Map();
  const chips = h('span', { class: 'chips', 'data-testid': `chosen-${key.key}` });
  const search = h('input', { id, type: 'search', placeholder: 'search values', 'aria-describedby': `${id}-help` });
  const list = h('ul', { class: 'values', 'aria-label': `${key.key} values` });
  let loaded = false;
  const drawChips = () => {
    clear(chips, [...chosen.values()].join(', ') || 'any');
    set(key.key, [...chosen.keys()]);
  };
  const load = async () => {
    try {
      const res = await call('contacts.values', { column, limit: 50, ...(search.value ? { q: search.value } : {}) });
      const values = [...res.data.values].sort((x, y) => y.count - x.count);
      clear(
        list,
        res.data.truncated ? h('li', { class: 'muted' }, 'More values: type to search.') : null,
        values.map((v) => {
          const box = h('input', {
            type: 'checkbox',
            id: `${id}-${v.value}`,
            value: v.value,
            checked: chosen.has(v.value),
          });
          box.addEventListener('change', () => {
            if (box.checked) chosen.set(v.value, v.label);
            else chosen.delete(v.value);
            drawChips();
          });
          return h('li', {}, box, h('label', { for: `${id}-${v.value}` }, `${v.label} (${fmt(v.count)})`));
        }),
      );
    } catch (e) {
      clear(list, h('li', { class: 'error' }, errorText(e)));
    }
  };
  let debounce;
  search.addEventListener('input', () => {
    clearTimeout(debounce);
    debounce = setTimeout(load, 250);
  });
  const details = h(
    'details',
    { class: 'field picker', 'data-key': key.key },
    h('summary', {}, `${key.key}: `, chips),
    h('label', { for: id, class: 'sr-only' }, `Search ${key.key} values`),
    search,
    list,
    h('small', { id: `${id}-help`, class: 'muted' }, key.description),
  );
  details.addEventListener('toggle', () => {
    if (details.open && !loaded) {
      loaded = true;
      load();
    }
  });
  clear(chips, 'any');
  return details;
}

/** The preview: one page of rows, paid one contact credit per row shown, only when asked. */
function previewBox(filter) {
  const size = h(
    'select',
    { id: 'preview-size' },
    [5, 10, 25].map((n) => h('option', { value: n }, String(n))),
  );
  size.value = '10';
  const button = h('button', { type: 'button', id: 'preview' });
  const label = () => {
    button.textContent = `Preview ${size.value} rows (costs up to ${size.value} contact credits)`;
  };
  size.addEventListener('change', label);
  label();
  const out = h('div', { 'data-testid': 'preview', 'aria-live': 'polite' });
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const res = await call('contacts.search', { filter, limit: Number(size.value) }, 'POST');
      const rows = res.data;
      clear(
        out,
        h(
          'p',
          {
            'data-testid': 'preview-cost',
            'data-rows': rows.length,
            'data-spent': res.quota?.contact_credits_used ?? 0,
          },
          `${rows.length} rows shown, ${fmt(res.quota?.contact_credits_used ?? 0)} contact credits spent; ` +
            `${fmt(res.quota?.today_remaining)} left today.`,
        ),
        table(
          null,
          PREVIEW_COLUMNS,
          rows.map((r) => PREVIEW_COLUMNS.map((c) => (r[c] === null || r[c] === undefined ? '—' : String(r[c])))),
          { 'data-testid': 'preview-rows' },
        ),
      );
    } catch (e) {
      clear(out, h('p', { class: 'error', role: 'alert' }, errorText(e)));
    } finally {
      button.disabled = false;
    }
  });
  return h(
    'div',
    { class: 'action' },
    h('h3', {}, 'Preview'),
    h('div', { class: 'row' }, h('label', { for: 'preview-size' }, 'Rows'), size, button),
    out,
  );
}

/** An export of the audience: max_rows, the hold it takes, then its status until the CSV link is ready. */
function exportBox(filter) {
  const max = h('input', { id: 'max-rows', type: 'number', min: 1, step: 1, value: 100, inputmode: 'numeric' });
  const button = h('button', { type: 'button', id: 'start-export' }, 'Start export');
  const out = h('div', { 'data-testid': 'export', 'aria-live': 'polite' });
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const res = await call('exports.create', { filter, max_rows: Number(max.value) }, 'POST');
      const job = res.data;
      const status = h('p', { 'data-testid': 'export-status' }, `Status: ${job.status}`);
      clear(
        out,
        h(
          'p',
          { 'data-testid': 'export-hold', 'data-held': job.rows_to_export },
          `Export ${job.export_id}: ${fmt(job.rows_to_export)} of ${fmt(job.rows_available)} rows. ` +
            `${fmt(job.rows_to_export)} contact credits are held now and charged for the rows exported when it completes.`,
        ),
        (res.warnings ?? []).map((w) => h('p', { class: 'muted' }, w.message)),
        status,
      );
      await follow(job.export_id, status, out);
    } catch (e) {
      clear(out, h('p', { class: 'error', role: 'alert' }, errorText(e)));
    } finally {
      button.disabled = false;
    }
  });
  return h(
    'div',
    { class: 'action' },
    h('h3', {}, 'Export'),
    h('div', { class: 'row' }, h('label', { for: 'max-rows' }, 'max_rows'), max, button),
    out,
  );
}

async function follow(id, status, out) {
  for (let i = 0; i < 600; i++) {
    const job = (await call('exports.get', { id })).data;
    status.textContent = `Status: ${job.status}, ${fmt(job.rows_exported)} rows written`;
    if (job.status === 'completed') {
      out.append(
        h(
          'p',
          {},
          h('a', { href: job.url, 'data-testid': 'export-download', download: '' }, 'Download CSV'),
          ` (link valid until ${when(job.expires_at)})`,
        ),
      );
      return;
    }
    if (job.status === 'failed') {
      out.append(h('p', { class: 'error' }, job.error ?? 'The export failed.'));
      return;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}
