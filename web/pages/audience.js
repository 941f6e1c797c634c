import { call } from '../api.js';
import { clear, copyButton, errorText, fmt, h, when } from '../dom.js';
import { GROUPS, MONTHS, wordsOf } from '../filter-labels.js';
import { cellText, failure, openDrawer, quoteThenRun } from '../widgets.js';

const DEFAULT_COLUMNS = ['name', 'title', 'company', 'country', 'seniority', 'work_email'];

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
 * Audience builder in plain words: the catalog's filter keys in groups (Person, Job, Company, Contact data, Signals,
 * Exclusions), each with a label and help; closed lists by how many contacts hold each value; includes and excludes
 * side by side; ranges as two fields; months as a month and a year select. The live count sits in a bar that stays
 * in view (also on a phone) with the active filters as removable chips. Results: a table of the chosen columns, a
 * row's detail in a drawer, pages by cursor, each page quoted before it is paid. An audience can be saved and
 * reopened (?audience=ID); ?company_id=&company_name= prefills the builder with one company.
 */
export async function render(view, session) {
  const schema = (await call('contacts.schema')).data;
  const columnLabel = new Map(schema.columns.map((c) => [c.name, c.label ?? c.name]));
  /** @type {Record<string, any>} */
  const filter = {};
  /** key -> { set(value) } : draws a control from a value (chip removal, prefill). */
  const controls = new Map();
  /** `${key}\u0000${value}` -> the value's label, filled as values load. */
  const valueLabels = new Map();
  const keyByName = new Map(schema.filter_keys.map((k) => [k.key, k]));
  const params = new URLSearchParams(location.search);
  let audience = null;

  const countOut = h('output', { id: 'live-count', 'data-testid': 'live-count', 'aria-live': 'polite' }, '…');
  const countNote = h('span', { class: 'muted', 'data-testid': 'count-note' });
  const chips = h('ul', { class: 'chips', 'data-testid': 'chips', 'aria-label': 'Active filters' });
  const curl = h('pre', { 'data-testid': 'curl' }, h('code'));
  const mcp = h('pre', { 'data-testid': 'mcp-call' }, h('code'));
  const saveBox = h('div', { class: 'save-box', 'data-testid': 'save-box' });
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

  /** An upper bound's chip reads with the label of the range it ends (the key whose range_end it is). */
  const rangeLabel = (key) =>
    wordsOf(schema.filter_keys.find((k) => k.range_end === key) ?? keyByName.get(key) ?? { key, description: '' })
      .label;
  const chipText = (key, value) => {
    if (key === 'where') return signalsText(value, valueLabels);
    const words = wordsOf(keyByName.get(key) ?? { key, description: '' });
    if (Array.isArray(value))
      return value.map((v) => [v, `${words.label}: ${valueLabels.get(`${key}\u0000${v}`) ?? v}`]);
    if (typeof value === 'boolean') return [[value, `${words.label}: ${value ? 'yes' : 'no'}`]];
    if (key.endsWith('_min')) return [[value, `${words.label}: at least ${fmt(value)}`]];
    if (key.endsWith('_max')) return [[value, `${rangeLabel(key)}: at most ${fmt(value)}`]];
    if (key.endsWith('_after')) return [[value, `${words.label}: after ${monthText(value)}`]];
    if (key.endsWith('_before')) return [[value, `${rangeLabel(key)}: before ${monthText(value)}`]];
    return [[value, `${words.label}: ${value}`]];
  };
  const drawChips = () => {
    const items = [];
    for (const [key, value] of Object.entries(filter)) {
      for (const [one, text] of chipText(key, value)) {
        const remove = h(
          'button',
          { type: 'button', class: 'chip', 'data-key': key, 'aria-label': `Remove ${text}`, title: 'Remove' },
          text,
          h('span', { 'aria-hidden': 'true' }, ' ×'),
        );
        remove.addEventListener('click', () => {
          const next = Array.isArray(value) ? value.filter((v) => v !== one) : undefined;
          apply(key, key === 'where' ? removeSignal(value, one) : next);
        });
        items.push(h('li', {}, remove));
      }
    }
    clear(chips, items.length ? items : h('li', { class: 'muted' }, 'No filters: every contact matches.'));
  };

  const changed = () => {
    snippets();
    drawChips();
    countNote.textContent = 'counting…';
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const mine = ++seq;
      try {
        const res = await call('contacts.count', { filter }, 'POST');
        if (mine !== seq) return;
        countOut.textContent = fmt(res.data.count);
        countOut.dataset.count = String(res.data.count);
        countNote.textContent = 'contacts match (counting is free)';
      } catch (e) {
        if (mine === seq) countNote.textContent = errorText(e);
      }
    }, 300);
  };
  /** From a control: the filter follows. */
  const set = (key, value) => {
    const empty = value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
    if (empty) delete filter[key];
    else filter[key] = value;
    changed();
  };
  /** From outside a control (a chip, a prefill): the control is redrawn, then the filter follows. */
  const apply = (key, value) => {
    controls.get(key)?.set(value);
    set(key, value);
  };
  const ctx = { set, controls, valueLabels, drawChips: () => drawChips() };

  // The form: one fieldset per group, pairs of include and exclude keys side by side, ranges in one field.
  const form = h('form', { class: 'filters', 'aria-label': 'Filters' });
  form.addEventListener('submit', (e) => e.preventDefault());
  const placed = new Set();
  for (const group of GROUPS) {
    const body = [];
    for (const key of schema.filter_keys) {
      if (placed.has(key.key) || wordsOf(key).group !== group.id) continue;
      const words = wordsOf(key);
      placed.add(key.key);
      const twin = words.pair ? keyByName.get(words.pair) : undefined;
      const upper = words.range ? keyByName.get(words.range) : undefined;
      if (twin) {
        placed.add(twin.key);
        body.push(h('div', { class: 'pair' }, control(key, ctx), control(twin, ctx)));
      } else if (upper) {
        placed.add(upper.key);
        body.push(rangeControl(key, upper, ctx));
      } else body.push(control(key, ctx));
    }
    if (group.id === 'signals') body.push(signalsControl(ctx));
    if (!body.length) continue;
    form.append(
      h(
        'fieldset',
        { class: 'group', 'data-group': group.id },
        h('legend', {}, group.title),
        h('p', { class: 'muted group-help' }, group.help),
        body,
      ),
    );
  }

  const saveButton = h('button', { type: 'button', class: 'secondary', id: 'save-audience' }, 'Save audience…');
  saveButton.addEventListener('click', () =>
    saveForm(saveBox, filter, audience, (a) => {
      audience = a;
      saveButton.textContent = 'Save changes…';
    }),
  );
  const resultsLink = h('a', { href: '#results', class: 'to-results' }, 'Results');
  const bar = h(
    'section',
    { class: 'countbar', 'data-testid': 'count-bar', 'aria-label': 'Audience count' },
    h(
      'div',
      { class: 'count-line' },
      h('p', { class: 'big' }, countOut, ' ', countNote),
      h('div', { class: 'row' }, saveButton, resultsLink),
    ),
    chips,
    saveBox,
  );

  const results = resultsBox(filter, schema, columnLabel);
  const side = h(
    'div',
    { class: 'side' },
    results,
    exportBox(filter),
    h(
      'section',
      { class: 'card' },
      h('h2', {}, 'Same filter over the API'),
      h('div', { class: 'row' }, h('label', { for: 'snippet-kind' }, 'Call'), kind),
      curl,
      copyButton(() => curl.textContent, 'Copy curl'),
      h('h3', {}, 'Same filter as an MCP call'),
      mcp,
      copyButton(() => mcp.textContent, 'Copy MCP call'),
    ),
  );
  view.append(bar, h('div', { class: 'builder' }, form, side));

  // Prefills: a saved audience, or one company from the Companies page.
  const audienceId = params.get('audience');
  if (audienceId) {
    try {
      audience = (await call('audiences.get', { id: audienceId })).data;
      saveButton.textContent = 'Save changes…';
      view.prepend(h('p', { class: 'muted', 'data-testid': 'audience-name' }, `Saved audience: ${audience.name}`));
      for (const [key, value] of Object.entries(audience.filter ?? {})) apply(key, value);
    } catch (e) {
      view.prepend(h('p', { class: 'error', role: 'alert' }, errorText(e)));
    }
  }
  const companyId = params.get('company_id');
  if (companyId) {
    const name = params.get('company_name');
    if (name) valueLabels.set(`company_ids\u0000${companyId}`, name);
    apply('company_ids', [companyId]);
  }
  changed();
}

function monthText(ym) {
  const [y, m] = String(ym).split('-');
  return `${MONTHS[Number(m) - 1] ?? m} ${y}`;
}

/** One filter key's control by its type. */
function control(key, ctx) {
  const words = wordsOf(key);
  const id = `f-${key.key}`;
  const help = h('small', { id: `${id}-help`, class: 'muted' }, words.help ?? '');
  const field = (input) =>
    h('div', { class: 'field', 'data-key': key.key }, h('label', { for: id }, words.label), input, help);
  if (key.type === 'boolean') {
    const select = h(
      'select',
      { id, 'aria-describedby': `${id}-help` },
      h('option', { value: '' }, 'Any'),
      h('option', { value: 'true' }, 'Yes'),
      h('option', { value: 'false' }, 'No'),
    );
    select.addEventListener('change', () =>
      ctx.set(key.key, select.value === '' ? undefined : select.value === 'true'),
    );
    ctx.controls.set(key.key, { set: (v) => (select.value = v === undefined ? '' : String(v)) });
    return field(select);
  }
  if (key.type === 'integer') {
    const input = numberInput(id, `${id}-help`);
    input.addEventListener('input', () => ctx.set(key.key, input.value === '' ? undefined : Number(input.value)));
    ctx.controls.set(key.key, { set: (v) => (input.value = v === undefined ? '' : String(v)) });
    return field(input);
  }
  if (key.type === 'month') {
    const m = monthPicker(id, words.label, (v) => ctx.set(key.key, v));
    ctx.controls.set(key.key, { set: m.set });
    return h('div', { class: 'field', 'data-key': key.key }, h('span', { class: 'label' }, words.label), m.el, help);
  }
  if (key.values_route) return picker(key, ctx);
  // Free text: a phrase (string) or a comma-separated list.
  const input = h('input', {
    id,
    type: 'text',
    'aria-describedby': `${id}-help`,
    placeholder: key.type === 'list' ? 'one, another' : '',
  });
  const read = () => {
    if (key.type !== 'list') return input.value.trim() || undefined;
    return input.value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
  };
  input.addEventListener('change', () => ctx.set(key.key, read()));
  input.addEventListener('input', () => ctx.set(key.key, read()));
  ctx.controls.set(key.key, {
    set: (v) => (input.value = v === undefined ? '' : Array.isArray(v) ? v.join(', ') : String(v)),
  });
  return field(input);
}

function numberInput(id, describedBy) {
  return h('input', { id, type: 'number', min: 0, step: 1, inputmode: 'numeric', 'aria-describedby': describedBy });
}

/** A lower and an upper bound in one field: two inputs (numbers or months) labelled From and To. */
function rangeControl(low, high, ctx) {
  const words = wordsOf(low);
  const id = `f-${low.key}`;
  const help = h('small', { id: `${id}-help`, class: 'muted' }, words.help ?? '');
  const box = h('div', { class: 'range' });
  if (low.type === 'month') {
    for (const [key, word] of [
      [low, 'After'],
      [high, 'Before'],
    ]) {
      const m = monthPicker(`f-${key.key}`, `${words.label}, ${word.toLowerCase()}`, (v) => ctx.set(key.key, v));
      ctx.controls.set(key.key, { set: m.set });
      box.append(h('div', { class: 'bound', 'data-key': key.key }, h('span', { class: 'label small' }, word), m.el));
    }
  } else {
    for (const [key, word] of [
      [low, 'From'],
      [high, 'To'],
    ]) {
      const input = numberInput(`f-${key.key}`, `${id}-help`);
      input.addEventListener('input', () => ctx.set(key.key, input.value === '' ? undefined : Number(input.value)));
      ctx.controls.set(key.key, { set: (v) => (input.value = v === undefined ? '' : String(v)) });
      box.append(
        h(
          'div',
          { class: 'bound', 'data-key': key.key },
          h('label', { for: `f-${key.key}`, class: 'small' }, word),
          input,
        ),
      );
    }
  }
  return h(
    'div',
    { class: `field range-field${low.type === 'month' ? ' months' : ''}`, 'data-key': low.key, 'data-range': high.key },
    h('span', { class: 'label' }, words.label),
    box,
    help,
  );
}

/** A month as two selects (month, year): never the browser's `--------- ----` month input. */
function monthPicker(id, label, onChange) {
  const now = new Date().getUTCFullYear();
  const month = h(
    'select',
    { id, 'aria-label': `${label}: month`, class: 'month' },
    h('option', { value: '' }, 'Month'),
    MONTHS.map((m, i) => h('option', { value: String(i + 1).padStart(2, '0') }, m)),
  );
  const year = h(
    'select',
    { id: `${id}-year`, 'aria-label': `${label}: year`, class: 'year' },
    h('option', { value: '' }, 'Year'),
    Array.from({ length: now - 1990 + 2 }, (_, i) => now + 1 - i).map((y) =>
      h('option', { value: String(y) }, String(y)),
    ),
  );
  const read = () => (month.value && year.value ? `${year.value}-${month.value}` : undefined);
  const changed = () => {
    // A month without a year (or the reverse) is not a bound yet: the filter waits for both.
    onChange(read());
  };
  month.addEventListener('change', changed);
  year.addEventListener('change', changed);
  return {
    el: h('span', { class: 'month-picker' }, month, year),
    set: (v) => {
      const [y, m] = v ? String(v).split('-') : ['', ''];
      year.value = y ?? '';
      month.value = m ?? '';
    },
  };
}

/**
 * A closed list: values by how many contacts hold them (sort=count), searched as one types, picked with checkboxes;
 * the summary line says how many are picked.
 */
function picker(key, ctx, opts = {}) {
  const words = opts.words ?? wordsOf(key);
  const name = opts.name ?? key.key;
  const id = `f-${name}`;
  const column = key.values_route.split('/').at(-2);
  const chosen = new Set();
  const status = h('span', { class: 'picked', 'data-testid': `picked-${name}` }, 'any');
  const search = h('input', { id, type: 'search', placeholder: 'Search values', 'aria-describedby': `${id}-help` });
  const list = h('ul', { class: 'values', 'aria-label': `${words.label} values`, 'data-testid': `values-${name}` });
  let loaded = false;
  const emit = () => {
    status.textContent = chosen.size ? `${chosen.size} picked` : 'any';
    (opts.onChange ?? ((v) => ctx.set(name, v)))([...chosen]);
  };
  const load = async () => {
    try {
      const res = await call('contacts.values', {
        column,
        limit: 50,
        sort: 'count',
        ...(search.value ? { q: search.value } : {}),
      });
      const total = res.data.values.reduce((sum, v) => sum + v.count, 0) || 1;
      for (const v of res.data.values) ctx.valueLabels.set(`${name}\u0000${v.value}`, v.label);
      clear(
        list,
        res.data.values.map((v) => {
          const box = h('input', {
            type: 'checkbox',
            id: `${id}-${v.value}`,
            value: v.value,
            checked: chosen.has(v.value),
          });
          box.addEventListener('change', () => {
            if (box.checked) chosen.add(v.value);
            else chosen.delete(v.value);
            emit();
          });
          return h(
            'li',
            {},
            box,
            h(
              'label',
              { for: `${id}-${v.value}` },
              v.label,
              h('span', { class: 'muted count' }, ` ${fmt(v.count)} · ${Math.round((100 * v.count) / total)}%`),
            ),
          );
        }),
        res.data.truncated ? h('li', { class: 'muted more' }, 'More values: type to search.') : null,
      );
      ctx.drawChips();
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
    { class: 'field picker', 'data-key': name },
    h('summary', {}, h('span', { class: 'label' }, words.label), ' ', status),
    h('label', { for: id, class: 'sr-only' }, `Search ${words.label} values`),
    search,
    list,
    h('small', { id: `${id}-help`, class: 'muted' }, words.help ?? ''),
  );
  details.addEventListener('toggle', () => {
    if (details.open && !loaded) {
      loaded = true;
      load();
    }
  });
  ctx.controls.set(name, {
    set: (values) => {
      chosen.clear();
      for (const v of opts.read ? opts.read(values) : (values ?? [])) chosen.add(v);
      status.textContent = chosen.size ? `${chosen.size} picked` : 'any';
      for (const box of list.querySelectorAll('input[type="checkbox"]')) box.checked = chosen.has(box.value);
      // Labels for the chips of values set from outside (a reopened audience).
      if (chosen.size && !loaded) {
        loaded = true;
        load();
      }
    },
  });
  return details;
}

/** Signals are filtered through `where` only: a picker of the signals column writing one `in` leaf. */
function signalsControl(ctx) {
  const key = { key: 'where', values_route: '/v1/contacts/schema/signals/values', description: '' };
  return picker(key, ctx, {
    name: 'where',
    words: { label: 'Signal', help: 'Any of the picked career events.', group: 'signals' },
    onChange: (values) => ctx.set('where', values.length ? { field: 'signals', op: 'in', value: values } : undefined),
    read: (where) => (where?.field === 'signals' && Array.isArray(where.value) ? where.value : []),
  });
}

function signalsText(where, labels) {
  if (where?.field === 'signals' && Array.isArray(where.value))
    return where.value.map((v) => [v, `Signal: ${labels.get(`where\u0000${v}`) ?? v}`]);
  return [[where, 'Advanced condition (where)']];
}

function removeSignal(where, one) {
  if (where?.field !== 'signals' || !Array.isArray(where.value)) return undefined;
  const rest = where.value.filter((v) => v !== one);
  return rest.length ? { ...where, value: rest } : undefined;
}

/** Save (or save the changes of) the audience: a name, the filter as it is now. */
function saveForm(box, filter, audience, saved) {
  const name = h('input', { id: 'audience-name-input', type: 'text', maxlength: 100, value: audience?.name ?? '' });
  const button = h('button', { type: 'submit' }, audience ? 'Save changes' : 'Save');
  const out = h('p', { 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'inline', 'data-testid': 'save-form' },
    h('label', { for: 'audience-name-input' }, 'Name'),
    name,
    button,
    out,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    button.disabled = true;
    try {
      const res = audience
        ? await call('audiences.update', { id: audience.id, name: name.value.trim(), filter }, 'PATCH')
        : await call('audiences.create', { name: name.value.trim(), filter }, 'POST');
      saved(res.data);
      clear(
        box,
        h(
          'p',
          { 'data-testid': 'saved', 'data-id': res.data.id },
          `Saved as "${res.data.name}". `,
          h('a', { href: `/app/audiences?id=${encodeURIComponent(res.data.id)}` }, 'See it with its history'),
        ),
      );
      history.replaceState(null, '', `/app/audience?audience=${encodeURIComponent(res.data.id)}`);
    } catch (e) {
      out.replaceChildren(failure(e));
      button.disabled = false;
    }
  });
  clear(box, form);
  name.focus();
}

/**
 * Results: a column chooser (any public column, by label), pages of rows each quoted before it is paid, a row's
 * every column in a drawer; the rows are fetched with every column (the same credit a row) so the drawer needs no
 * second call.
 */
function resultsBox(filter, schema, columnLabel) {
  const shown = new Set(DEFAULT_COLUMNS);
  const chooser = h(
    'details',
    { class: 'columns-chooser', 'data-testid': 'column-chooser' },
    h('summary', {}, 'Columns'),
    h(
      'ul',
      { class: 'values' },
      schema.columns
        .filter((c) => c.name !== 'id')
        .map((c) => {
          const box = h('input', { type: 'checkbox', id: `col-${c.name}`, value: c.name, checked: shown.has(c.name) });
          box.addEventListener('change', () => {
            if (box.checked) shown.add(c.name);
            else shown.delete(c.name);
            drawTable();
          });
          return h('li', {}, box, h('label', { for: `col-${c.name}` }, c.label ?? c.name));
        }),
    ),
  );
  const size = h(
    'select',
    { id: 'page-size' },
    [10, 25, 50].map((n) => h('option', { value: n }, String(n))),
  );
  const show = h('button', { type: 'button', id: 'show-rows' }, 'Show rows…');
  const next = h('button', { type: 'button', id: 'next-page', class: 'secondary', hidden: true }, 'Next page…');
  const quote = h('div', { 'data-testid': 'results-quote', 'aria-live': 'polite' });
  const out = h('div', { 'data-testid': 'results' });
  let rows = [];
  let cursor = null;
  let pageNo = 0;

  const drawTable = () => {
    if (!rows.length) return;
    const cols = schema.columns.filter((c) => shown.has(c.name)).map((c) => c.name);
    clear(
      out,
      h('p', { class: 'muted', 'data-testid': 'page-no' }, `Page ${pageNo}: ${rows.length} rows.`),
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { 'data-testid': 'result-rows', class: 'results' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Details')),
              cols.map((c) => h('th', { scope: 'col', 'data-column': c }, columnLabel.get(c) ?? c)),
            ),
          ),
          h(
            'tbody',
            {},
            rows.map((r) => {
              const open = h(
                'button',
                { type: 'button', class: 'link-button', 'aria-label': `Details of ${r.name ?? r.id}` },
                'Open',
              );
              open.addEventListener('click', () =>
                openDrawer(
                  r.name ?? r.id,
                  schema.columns
                    .filter((c) => c.name in r)
                    .map((c) => [columnLabel.get(c.name) ?? c.name, cellText(r[c.name]), c.name]),
                ),
              );
              return h(
                'tr',
                {},
                h('td', {}, open),
                cols.map((c) => h('td', { 'data-column': c }, cellText(r[c]))),
              );
            }),
          ),
        ),
      ),
    );
  };
  const fetchPage = async (from) => {
    show.disabled = true;
    next.disabled = true;
    const input = { filter, limit: Number(size.value), columns: ['*'], ...(from ? { cursor: from } : {}) };
    const res = await quoteThenRun(quote, 'contacts.search', input, `show ${size.value} rows`);
    show.disabled = false;
    next.disabled = false;
    if (!res) return;
    rows = res.data;
    cursor = res.page?.next_cursor ?? null;
    pageNo = from ? pageNo + 1 : 1;
    next.hidden = !cursor;
    for (const w of res.warnings ?? []) quote.append(h('p', { class: 'muted' }, w.message));
    if (!rows.length) clear(out, h('p', { class: 'empty' }, 'No rows match.'));
    drawTable();
  };
  show.addEventListener('click', () => fetchPage(null));
  next.addEventListener('click', () => fetchPage(cursor));
  return h(
    'section',
    { class: 'card', id: 'results', tabindex: '-1' },
    h('h2', {}, 'Results'),
    h('p', { class: 'muted' }, 'One contact credit per row shown; each page says its cost first.'),
    chooser,
    h('div', { class: 'row' }, h('label', { for: 'page-size' }, 'Rows a page'), size, show, next),
    quote,
    out,
  );
}

/** An export of the audience: the rows to write, its quote, then its status until the CSV link is ready. */
function exportBox(filter) {
  const max = h('input', { id: 'max-rows', type: 'number', min: 1, step: 1, value: 100, inputmode: 'numeric' });
  const button = h('button', { type: 'button', id: 'start-export' }, 'Export…');
  const quote = h('div', { 'aria-live': 'polite' });
  const out = h('div', { 'data-testid': 'export', 'aria-live': 'polite' });
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const res = await quoteThenRun(quote, 'exports.create', { filter, max_rows: Number(max.value) }, 'export');
      if (!res) return;
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
      clear(out, failure(e));
    } finally {
      button.disabled = false;
    }
  });
  return h(
    'section',
    { class: 'card' },
    h('h2', {}, 'Export'),
    h('div', { class: 'row' }, h('label', { for: 'max-rows' }, 'Rows to export'), max, button),
    quote,
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
          ` (link valid until ${when(job.expires_at)}). ${fmt(job.rows_exported)} contact credits charged.`,
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
