import { call } from '../api.js';
import { clear, copyButton, errorText, facts, h, table, when } from '../dom.js';

/**
 * Webhooks: the account's endpoints with their health (healthy, failing, disabled and why), a form to add one (its
 * secret shown once), a test ping, and each endpoint's delivery log with a replay per delivery. docs/webhooks.md.
 */
const EVENTS = [
  ['export.completed', 'Export completed'],
  ['export.failed', 'Export failed'],
  ['collect.completed', 'Collect completed'],
  ['collect.failed', 'Collect failed'],
  ['alert.leads', 'Alert found leads'],
  ['enrichment_run.completed', 'Enrichment run completed'],
  ['credits.low', 'Credits low'],
  ['key.revoked', 'Key revoked'],
];

const HEALTH = { new: 'No delivery yet', healthy: 'Healthy', failing: 'Failing', disabled: 'Disabled' };

export async function render(view) {
  const list = h('div', { 'data-testid': 'webhook-list', 'aria-live': 'polite' });
  const log = h('div', { 'data-testid': 'webhook-log', 'aria-live': 'polite' });
  const secretBox = h('div', { 'data-testid': 'webhook-secret', 'aria-live': 'polite' });

  const url = h('input', {
    id: 'webhook-url',
    type: 'url',
    required: true,
    spellcheck: 'false',
    placeholder: 'https://crm.example.com/hooks/cds',
  });
  const description = h('input', { id: 'webhook-description', type: 'text', maxlength: '500' });
  // One event a line (a div each: no style of its own needed).
  const boxes = EVENTS.map(([value, label]) =>
    h(
      'div',
      {},
      h(
        'label',
        {},
        h('input', { type: 'checkbox', name: 'events', value, checked: value.startsWith('export.') }),
        ` ${label}`,
      ),
    ),
  );
  const form = h(
    'form',
    { 'aria-label': 'Add a webhook endpoint', 'data-testid': 'webhook-form' },
    h('div', {}, h('label', { for: 'webhook-url' }, 'URL (https)')),
    h('div', {}, url),
    h('div', {}, h('label', { for: 'webhook-description' }, 'Description (optional)')),
    h('div', {}, description),
    h('fieldset', {}, h('legend', {}, 'Events'), boxes),
    h('button', { type: 'submit' }, 'Add endpoint'),
  );

  const load = async () => {
    try {
      const endpoints = (await call('webhooks.list')).data;
      clear(list, endpointTable(endpoints));
    } catch (e) {
      clear(list, h('p', { class: 'error', role: 'alert' }, errorText(e)));
    }
  };

  const showLog = async (endpoint) => {
    try {
      const attempts = (await call('webhooks.deliveries', { id: endpoint.id })).data;
      clear(
        log,
        h('h3', {}, `Deliveries to ${endpoint.url}`),
        attempts.length
          ? table(
              null,
              ['Time', 'Event', 'Attempt', 'Outcome', 'ms', 'Next retry', ''],
              attempts.map((a) => [
                when(a.at),
                a.event,
                String(a.attempt),
                a.ok ? `Delivered (${a.status_code})` : (a.status_code ? `HTTP ${a.status_code}` : a.error) || 'Failed',
                String(a.duration_ms),
                a.next_retry_at ? when(a.next_retry_at) : '—',
                replayButton(endpoint, a),
              ]),
              { 'data-testid': 'webhook-attempts' },
            )
          : h('p', { class: 'empty' }, 'No attempt yet.'),
      );
    } catch (e) {
      clear(log, h('p', { class: 'error', role: 'alert' }, errorText(e)));
    }
  };

  const replayButton = (endpoint, attempt) => {
    const b = h('button', { type: 'button', class: 'secondary' }, 'Replay');
    b.addEventListener('click', async () => {
      try {
        await call('webhooks.replay', { id: endpoint.id, delivery_id: attempt.delivery_id }, 'POST');
        b.textContent = 'Queued';
      } catch (e) {
        b.replaceWith(h('span', { class: 'error', role: 'alert' }, errorText(e)));
      }
    });
    return b;
  };

  const endpointTable = (endpoints) => {
    if (!endpoints.length) return h('p', { class: 'empty', 'data-testid': 'webhook-empty' }, 'No endpoint yet.');
    return table(
      null,
      ['URL', 'Events', 'Health', 'Last delivered', ''],
      endpoints.map((e) => {
        const test = h('button', { type: 'button', class: 'secondary' }, 'Send test');
        test.addEventListener('click', async () => {
          try {
            await call('webhooks.test', { id: e.id }, 'POST');
            test.textContent = 'Test queued';
            setTimeout(() => showLog(e), 1500);
          } catch (err) {
            test.replaceWith(h('span', { class: 'error', role: 'alert' }, errorText(err)));
          }
        });
        const logButton = h('button', { type: 'button', class: 'secondary' }, 'Deliveries');
        logButton.addEventListener('click', () => showLog(e));
        const remove = h('button', { type: 'button', class: 'secondary' }, 'Delete');
        remove.addEventListener('click', async () => {
          await call('webhooks.delete', { id: e.id }, 'DELETE').catch(() => undefined);
          clear(log);
          await load();
        });
        const enable = e.enabled ? null : h('button', { type: 'button', class: 'secondary' }, 'Enable again');
        enable?.addEventListener('click', async () => {
          try {
            await call('webhooks.update', { id: e.id, enabled: true }, 'PATCH');
            await load();
          } catch (err) {
            enable.replaceWith(h('span', { class: 'error', role: 'alert' }, errorText(err)));
          }
        });
        const health = h(
          'span',
          { class: `health ${e.health}`, 'data-health': e.health },
          HEALTH[e.health] ?? e.health,
          e.disabled_reason ? h('small', { class: 'muted' }, ` ${e.disabled_reason}`) : null,
        );
        return [
          h('span', { class: 'break' }, e.url),
          e.events.join(', '),
          health,
          when(e.last_success_at),
          h('span', { class: 'actions' }, enable, test, logButton, remove),
        ];
      }),
      { 'data-testid': 'webhook-rows' },
    );
  };

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const events = boxes
      .map((b) => b.querySelector('input'))
      .filter((i) => i.checked)
      .map((i) => i.value);
    try {
      const created = (
        await call(
          'webhooks.create',
          {
            url: url.value.trim(),
            events,
            ...(description.value.trim() ? { description: description.value.trim() } : {}),
          },
          'POST',
        )
      ).data;
      clear(
        secretBox,
        h('p', {}, 'The signing secret, shown this once: keep it with the receiver.'),
        facts([['Secret', h('code', { class: 'break' }, created.secret), 'webhook-secret-value']]),
        copyButton(() => created.secret, 'Copy secret'),
      );
      url.value = '';
      description.value = '';
      await load();
    } catch (e) {
      clear(secretBox, h('p', { class: 'error', role: 'alert' }, errorText(e)));
    }
  });

  view.append(
    h(
      'section',
      { class: 'card' },
      h('h2', {}, 'Webhook endpoints'),
      h(
        'p',
        { class: 'muted' },
        'The service POSTs a signed event (Standard Webhooks) to each endpoint when an export, collect, alert run or ' +
          'enrichment run ends, credits run low or a key is revoked; failed deliveries are retried for about three days.',
      ),
      list,
      log,
    ),
    h('section', { class: 'card' }, h('h2', {}, 'Add an endpoint'), form, secretBox),
  );
  await load();
}
