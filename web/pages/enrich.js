import { call } from '../api.js';
import { clear, errorText, fmt, h, table, when } from '../dom.js';
import { cellText, failure, quoteThenRun } from '../widgets.js';

/**
 * Enrichment for a person: one contact from a work email, a phone number or a profile URL (quoted first; a miss is
 * free), a new upload page for a CSV, and the account's CSV enrichment runs with their result files.
 */
export async function render(view) {
  const schema = (await call('contacts.schema')).data;
  const label = new Map(schema.columns.map((c) => [c.name, c.label ?? c.name]));
  view.append(singleBox(label), await uploadsBox());
}

function singleBox(label) {
  const input = h('input', {
    id: 'enrich-input',
    type: 'text',
    required: true,
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'jane@acme.com, +12125550100 or a profile URL',
  });
  const quote = h('div', { 'data-testid': 'enrich-quote', 'aria-live': 'polite' });
  const out = h('div', { 'data-testid': 'enrich-result', 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'inline' },
    h('label', { for: 'enrich-input' }, 'Email, phone or profile URL'),
    input,
    h('button', { type: 'submit' }, 'Find…'),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const value = input.value.trim();
    if (!value) return;
    clear(out);
    const res = await quoteThenRun(quote, 'enrichments.create', { inputs: [value], columns: ['*'] }, 'enrich');
    if (!res) return;
    const one = res.data[0];
    if (!one?.matched || !one.contact) {
      const why =
        one?.reason === 'invalid'
          ? 'That is not an email, a phone number or a profile URL.'
          : one?.reason === 'ambiguous'
            ? 'Several contacts share that phone number.'
            : 'No stored contact matches it.';
      clear(out, h('p', { 'data-testid': 'enrich-miss' }, `${why} Nothing was charged.`));
      return;
    }
    const c = one.contact;
    clear(
      out,
      h(
        'section',
        { class: 'card', 'data-testid': 'enrich-contact', 'data-id': c.id },
        h('h3', {}, c.name ?? c.id),
        h(
          'dl',
          { class: 'facts' },
          Object.keys(c)
            .filter((k) => c[k] !== null && c[k] !== undefined && c[k] !== '')
            .map((k) => [h('dt', {}, label.get(k) ?? k), h('dd', { 'data-column': k }, cellText(c[k]))]),
        ),
      ),
    );
  });
  return h(
    'section',
    { class: 'card' },
    h('h2', {}, 'Enrich one contact'),
    h('p', { class: 'muted' }, 'One contact credit when it matches; a miss is free. The cost is stated first.'),
    form,
    quote,
    out,
  );
}

/** A new upload page for this account, and the runs of the account with their result files. */
async function uploadsBox() {
  const linkOut = h('div', { 'data-testid': 'upload-link', 'aria-live': 'polite' });
  const make = h('button', { type: 'button', id: 'new-upload' }, 'New upload page');
  make.addEventListener('click', async () => {
    make.disabled = true;
    try {
      const link = (await call('enrichment_uploads.create', {}, 'POST')).data;
      clear(
        linkOut,
        h(
          'p',
          {},
          h('a', { href: link.upload_url, 'data-testid': 'upload-page-link' }, 'Open the upload page'),
          ` (valid until ${when(link.expires_at)}). Choose the CSV there, check the columns and the cost, start; `,
          'the result appears below.',
        ),
      );
    } catch (e) {
      clear(linkOut, failure(e));
    } finally {
      make.disabled = false;
    }
  });
  const runs = h('div', { 'data-testid': 'runs' });
  const refresh = h('button', { type: 'button', class: 'secondary', id: 'refresh-runs' }, 'Refresh');
  const load = async () => {
    try {
      const res = await call('enrichment_runs.list', { limit: 25 });
      clear(runs, runsTable(res.data));
    } catch (e) {
      clear(runs, h('p', { class: 'error', role: 'alert' }, errorText(e)));
    }
  };
  refresh.addEventListener('click', load);
  await load();
  return h(
    'section',
    { class: 'card' },
    h('h2', {}, 'Enrich a spreadsheet'),
    h(
      'p',
      { class: 'muted' },
      'Upload a CSV of work emails, phone numbers or profile URLs on an upload page; one contact credit per matched ',
      'row. The result file downloads here when the run completes.',
    ),
    h('div', { class: 'row' }, make),
    linkOut,
    h('div', { class: 'row' }, h('h3', {}, 'Runs'), refresh),
    runs,
  );
}

function runsTable(list) {
  if (!list.length) return h('p', { class: 'empty', 'data-testid': 'runs-empty' }, 'No spreadsheet runs yet.');
  return table(
    null,
    ['Run', 'File', 'Status', 'Rows', 'Matched', 'Credits', 'Created', 'Result'],
    list.map((r) => [
      h('code', {}, r.id ?? r.run_id),
      r.file_name ?? '—',
      r.status,
      fmt(r.rows),
      fmt(r.matched ?? r.matched_rows),
      fmt(r.credits ?? r.credits_charged),
      when(r.created_at),
      r.status === 'completed' ? downloadCell(r.id ?? r.run_id) : '—',
    ]),
    { 'data-testid': 'runs-table' },
  );
}

/** The result link is signed and short-lived: it is asked for when the person wants it. */
function downloadCell(id) {
  const cell = h('span', {});
  const button = h('button', { type: 'button', class: 'secondary', 'data-testid': 'get-result' }, 'Get the result');
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const run = (await call('enrichment_runs.get', { id })).data;
      if (!run.result_url) throw new Error('The result file is not ready.');
      clear(cell, h('a', { href: run.result_url, download: '', 'data-testid': 'result-download' }, 'Download CSV'));
    } catch (e) {
      clear(cell, h('span', { class: 'error' }, errorText(e)));
    }
  });
  cell.append(button);
  return cell;
}
