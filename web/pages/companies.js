import { call } from '../api.js';
import { clear, errorText, fmt, h } from '../dom.js';
import { cellText, openDrawer, quoteThenRun } from '../widgets.js';

const SHOWN = ['name', 'domain', 'industries', 'hq_country', 'employee_count'];

/**
 * Companies: search by name or website (quoted first: company search costs one contact credit per company shown),
 * a company's detail with how many contacts work there (a free count) and a link that opens the audience builder
 * prefilled with that company.
 */
export async function render(view) {
  const schema = (await call('companies.schema')).data;
  const label = new Map(schema.columns.map((c) => [c.name, c.label ?? c.name]));
  const shown = SHOWN.filter((c) => label.has(c));
  const q = h('input', { id: 'company-q', type: 'search', required: true, placeholder: 'Acme or acme.com' });
  const size = h(
    'select',
    { id: 'company-limit' },
    [5, 10, 25].map((n) => h('option', { value: n }, String(n))),
  );
  size.value = '10';
  const quote = h('div', { 'data-testid': 'company-quote', 'aria-live': 'polite' });
  const out = h('div', { 'data-testid': 'companies' });
  const detail = h('div', { 'data-testid': 'company-detail', 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'inline', role: 'search' },
    h('label', { for: 'company-q' }, 'Company name or website'),
    q,
    h('label', { for: 'company-limit' }, 'At most'),
    size,
    h('button', { type: 'submit' }, 'Search…'),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = q.value.trim();
    if (!text) return;
    // A word with a dot is a website (domain); anything else a company name.
    const filter = /^[^\s]+\.[a-z]{2,}$/i.test(text) ? { domains: [text] } : { names: [text] };
    clear(detail);
    clear(out);
    const res = await quoteThenRun(
      quote,
      'companies.search',
      { filter, limit: Number(size.value), columns: ['*'] },
      'search',
    );
    if (!res) return;
    if (!res.data.length) {
      clear(
        out,
        h('p', { class: 'empty' }, `No company named "${text}". Names match exactly (after dropping Inc, Ltd…).`),
      );
      return;
    }
    clear(
      out,
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { 'data-testid': 'company-rows' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              shown.map((c) => h('th', { scope: 'col' }, label.get(c))),
            ),
          ),
          h(
            'tbody',
            {},
            res.data.map((row) => {
              const open = h('button', { type: 'button', class: 'link-button' }, row.name ?? row.id);
              open.addEventListener('click', () => showCompany(row, detail, label));
              return h(
                'tr',
                {},
                shown.map((c, i) => h('td', {}, i === 0 ? open : cellText(row[c]))),
              );
            }),
          ),
        ),
      ),
    );
    if (res.data.length === 1) showCompany(res.data[0], detail, label);
  });
  view.append(
    h(
      'section',
      { class: 'card' },
      h('h2', {}, 'Find a company'),
      h('p', { class: 'muted' }, 'One contact credit per company shown; the cost is stated before the search runs.'),
      form,
      quote,
      out,
    ),
    detail,
  );
}

/** A company's facts, how many contacts work there (free count) and the way to its audience. */
async function showCompany(row, box, label) {
  const count = h('output', { 'data-testid': 'company-contacts' }, '…');
  const build = h(
    'a',
    {
      class: 'button-link',
      'data-testid': 'build-audience',
      href: `/app/audience?${new URLSearchParams({ company_id: row.id, company_name: row.name ?? row.id })}`,
    },
    `Build an audience of ${row.name ?? row.id}'s contacts`,
  );
  const more = h('button', { type: 'button', class: 'secondary' }, 'Every field');
  more.addEventListener('click', () =>
    openDrawer(
      row.name ?? row.id,
      Object.keys(row).map((k) => [label.get(k) ?? k, cellText(row[k]), k]),
    ),
  );
  clear(
    box,
    h(
      'section',
      { class: 'card', 'data-id': row.id },
      h('h2', {}, row.name ?? row.id),
      h(
        'dl',
        { class: 'facts' },
        ['domain', 'industries', 'hq_country', 'employee_count', 'founded_year']
          .filter((k) => k in row)
          .map((k) => [h('dt', {}, label.get(k) ?? k), h('dd', {}, cellText(row[k]))]),
        h('dt', {}, 'Contacts'),
        h('dd', {}, count, ' (counting is free)'),
      ),
      h('div', { class: 'row' }, build, more),
    ),
  );
  try {
    const res = await call('contacts.count', { filter: { company_ids: [row.id] } }, 'POST');
    count.textContent = fmt(res.data.count);
    count.dataset.count = String(res.data.count);
  } catch (e) {
    count.textContent = errorText(e);
  }
}
