import { call, get } from '../api.js';
import { usageChart } from '../chart.js';
import { facts, fmt, h, table, when } from '../dom.js';
import { exhausted } from '../widgets.js';

/** Overview: the plan, the credits left in each window, fair use on unlimited plans and 30 days of spending. */
export async function render(view) {
  const [account, credits, usage] = await Promise.all([call('account.get'), call('credits.get'), get('usage')]);
  const a = account.data;
  const c = credits.data;
  const left = c.contact.kind === 'windows' ? Math.min(c.contact.day.remaining, c.contact.month.remaining) : null;
  if (left === 0 || (c.contact.kind === 'pool' && c.contact.pool?.remaining === 0)) {
    const window =
      c.contact.kind === 'windows' ? (c.contact.binding === 'month' ? c.contact.month : c.contact.day) : null;
    view.append(
      exhausted({
        message: 'No contact credits are left.',
        hint: window ? `They come back at ${when(window.resets_at)}.` : 'The lifetime pool is spent.',
        pool: !window,
      }),
    );
  }
  view.append(
    h(
      'section',
      { class: 'cards' },
      card(
        'Plan',
        facts([
          ['Plan', `${a.plan?.name ?? a.plan?.slug ?? c.plan} (${c.plan})`, 'plan'],
          ['Account', a.name],
          ['Status', a.status, 'account-status'],
        ]),
      ),
      card('Contact credits', contactFacts(c.contact)),
      card(
        'Premium credits',
        facts([
          ['Available', fmt(c.premium.available), 'premium-available'],
          ['Allowance', fmt(c.premium.allowance)],
          ['Used', fmt(c.premium.used)],
          ['Held', fmt(c.premium.held)],
          ['Resets at', when(c.premium.resets_at), 'premium-resets-at'],
        ]),
      ),
    ),
  );
  if (c.fair_use) view.append(card('Fair-use budgets', fairUse(c.fair_use)));
  view.append(card('Credits spent per day, last 30 days', usageChart(usage.data)));
}

function card(title, ...body) {
  return h('section', { class: 'card' }, h('h2', {}, title), ...body);
}

function contactFacts(contact) {
  if (contact.kind === 'windows') {
    return facts([
      ['Left today', `${fmt(contact.day.remaining)} of ${fmt(contact.day.cap)}`, 'today-remaining'],
      ['Left this month', `${fmt(contact.month.remaining)} of ${fmt(contact.month.cap)}`, 'month-remaining'],
      ['Held now', fmt(contact.day.held)],
      ['Binding window', contact.binding],
      ['Resets at', when((contact.binding === 'month' ? contact.month : contact.day).resets_at), 'contact-resets-at'],
    ]);
  }
  if (contact.kind === 'pool') {
    return facts([
      ['Left in the pool', `${fmt(contact.pool?.remaining)} of ${fmt(contact.pool?.cap)}`, 'today-remaining'],
      ['Resets at', 'never (lifetime pool)', 'contact-resets-at'],
    ]);
  }
  return facts([['Contact credits', 'unlimited (fair use applies)', 'today-remaining']]);
}

/** Fair-use budgets: whatever categories and windows the credits route reports. */
function fairUse(fair) {
  const rows = [];
  for (const [category, windows] of Object.entries(fair)) {
    if (!windows || typeof windows !== 'object') continue;
    for (const [window, v] of Object.entries(windows)) {
      if (!v || typeof v !== 'object') continue;
      rows.push([category, window, fmt(v.used), fmt(v.remaining), fmt(v.cap), when(v.resets_at)]);
    }
  }
  return table(null, ['Category', 'Window', 'Used', 'Left', 'Cap', 'Resets at'], rows, {
    'data-testid': 'fair-use',
    class: 'nowrap',
  });
}
