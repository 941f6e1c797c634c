import { ApiError, call, get } from '../api.js';
import { clear, copyButton, errorText, facts, h, when } from '../dom.js';

/**
 * Integrations: the account's key (prefix and creation date only; a secret is shown once, at creation), revoke and
 * create under the one-active-key rule, and the MCP client configuration for this service.
 */
export async function render(view, session) {
  const keysBox = h('section', { class: 'card', 'aria-labelledby': 'keys-title' });
  const mcpBox = h('section', { class: 'card', 'aria-labelledby': 'mcp-title' });
  const oauthBox = h('section', { class: 'card', 'aria-labelledby': 'oauth-title' });
  view.append(keysBox, mcpBox, oauthBox);
  await drawKeys(keysBox);
  drawMcp(mcpBox, session.base_url);
  await drawOAuthClients(oauthBox, session.csrf_token);
}

/**
 * MCP clients connected with OAuth (a hosted assistant signed in on the authorization page): each acts for this
 * account under the key it was approved with; disconnecting one ends its tokens at once.
 */
async function drawOAuthClients(box, csrf, note = '') {
  const status = h('p', { role: 'status', class: 'muted', id: 'oauth-clients-status' }, note);
  let clients = [];
  try {
    clients = (await get('oauth/clients')).data;
  } catch (e) {
    status.textContent = errorText(e);
  }
  const list = h('ul', { id: 'oauth-clients', class: 'plain' });
  for (const c of clients) {
    const name = c.client_name ?? c.client_id;
    const disconnect = h(
      'button',
      {
        type: 'button',
        class: 'danger',
        on: {
          click: async () => {
            disconnect.disabled = true;
            const res = await fetch(`/app/api/oauth/clients/${encodeURIComponent(c.client_id)}`, {
              method: 'DELETE',
              credentials: 'same-origin',
              headers: { 'X-CSRF-Token': csrf },
            });
            const body = await res.json().catch(() => ({}));
            if (!res.ok || body.ok === false) {
              disconnect.disabled = false;
              status.textContent = errorText(new ApiError(res.status, body.error));
              return;
            }
            await drawOAuthClients(box, csrf, `Disconnected ${name}: its tokens no longer work.`);
          },
        },
      },
      `Disconnect ${name}`,
    );
    list.append(
      h(
        'li',
        {},
        h('strong', {}, name),
        ` — connected ${when(c.connected_at)}, may ${c.scopes.join(', ') || 'mcp'}; returns to `,
        h('code', {}, c.redirect_uris.join(', ') || '—'),
        ' ',
        disconnect,
      ),
    );
  }
  clear(
    box,
    h('h2', { id: 'oauth-title' }, 'Connected MCP clients (OAuth)'),
    h(
      'p',
      {},
      "Hosted assistants connect with the URL of /mcp alone and sign in here with this account's key. Each acts " +
        'for this account, charges its credits, and stops working when you disconnect it or revoke the key.',
    ),
    clients.length ? list : h('p', { 'data-testid': 'no-oauth-clients' }, 'No client is connected.'),
    status,
  );
}

async function drawKeys(box, created) {
  const keys = (await call('keys.list')).data;
  const active = keys.find((k) => k.active);
  const status = h('p', { role: 'status', class: 'muted' });
  clear(
    box,
    h('h2', { id: 'keys-title' }, 'API key'),
    h(
      'p',
      {},
      'An account has at most one active key. To rotate it, revoke the active key, then create the new one: ' +
        'clients using the old key stop working at once. This console session stays signed in and moves to the new key.',
    ),
  );
  if (created) box.append(shownOnce(created));
  if (active) {
    const confirm = h('div', { class: 'confirm', hidden: true });
    const revoke = h('button', { type: 'button', class: 'danger', id: 'revoke-key' }, 'Revoke key…');
    revoke.addEventListener('click', () => {
      confirm.hidden = false;
      confirm.querySelector('button')?.focus();
    });
    clear(
      confirm,
      h('p', {}, `Revoke cds_${active.prefix}…? Every client using it is refused from now on.`),
      h(
        'button',
        {
          type: 'button',
          class: 'danger',
          id: 'confirm-revoke',
          on: {
            click: async () => {
              try {
                await call('keys.revoke', { id: active.id }, 'DELETE');
                await drawKeys(box);
              } catch (e) {
                status.textContent = errorText(e);
              }
            },
          },
        },
        'Yes, revoke',
      ),
      h('button', { type: 'button', class: 'secondary', on: { click: () => (confirm.hidden = true) } }, 'Cancel'),
    );
    box.append(
      facts([
        ['Active key', `cds_${active.prefix}…`, 'key-prefix'],
        ['Name', active.name ?? '—'],
        ['Created', when(active.created_at), 'key-created'],
        ['Last used', when(active.last_used_at)],
      ]),
      revoke,
      confirm,
    );
  } else {
    const name = h('input', { id: 'key-name', type: 'text', maxlength: 100, placeholder: 'e.g. CRM sync' });
    const create = h('button', { type: 'submit', id: 'create-key' }, 'Create key');
    const form = h('form', { class: 'inline' }, h('label', { for: 'key-name' }, 'Name (optional)'), name, create);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      try {
        const res = await call('keys.create', name.value.trim() ? { name: name.value.trim() } : {}, 'POST');
        await drawKeys(box, res.data);
      } catch (e) {
        status.textContent = errorText(e);
      }
    });
    box.append(h('p', { 'data-testid': 'no-active-key' }, 'No active key.'), form);
  }
  box.append(status);
  const revoked = keys.filter((k) => !k.active);
  if (revoked.length)
    box.append(
      h('p', { class: 'muted' }, `${revoked.length} revoked key${revoked.length > 1 ? 's' : ''} on this account.`),
    );
}

/** The new secret, once: it is not stored anywhere the console can read it again. */
function shownOnce(created) {
  const secret = created.api_key ?? '';
  const field = h('input', { id: 'new-key', type: 'text', readonly: true, value: secret, spellcheck: 'false' });
  return h(
    'div',
    { class: 'once', role: 'alert' },
    h('label', { for: 'new-key' }, 'New key: copy it now, it is shown only once'),
    h(
      'div',
      { class: 'row' },
      field,
      copyButton(() => secret, 'Copy key'),
    ),
    // The key rides in the fragment, which the browser never sends: the reference page's script puts it into its
    // curl and MCP examples.
    h(
      'p',
      {},
      h(
        'a',
        {
          href: `/docs#key=${encodeURIComponent(secret)}`,
          target: '_blank',
          rel: 'noopener noreferrer',
          id: 'docs-with-key',
        },
        'Open the API reference with this key in its examples',
      ),
    ),
  );
}

function drawMcp(box, baseUrl) {
  const config = JSON.stringify(
    { mcpServers: { 'contact-data': { type: 'http', url: `${baseUrl}/mcp`, headers: { 'X-API-Key': '<API_KEY>' } } } },
    null,
    2,
  );
  clear(
    box,
    h('h2', { id: 'mcp-title' }, 'MCP client configuration'),
    h('p', {}, 'Add this server to an MCP client (Streamable HTTP), with the key in place of <API_KEY>:'),
    h('pre', { 'data-testid': 'mcp-config' }, h('code', {}, config)),
    copyButton(() => config, 'Copy configuration'),
    facts([
      ['REST, family A', `${baseUrl}/v1 (Authorization: Bearer <API_KEY>)`],
      ['REST, family B', `${baseUrl}/api/v1 (X-API-Key: <API_KEY>)`],
      ['OAuth (hosted clients)', `${baseUrl}/mcp (the client signs in on this service's page; no key to paste)`],
      ['Reference', `${baseUrl}/docs`],
    ]),
  );
}
