import { ensureSecret, loadConfig } from '../../config.js';
import { systemClock } from '../../domain/clock.js';
import { keyView } from '../../operations/keys/keys.js';
import { openState } from '../../services.js';
import { type CommandSpec, parse, UsageError } from '../args.js';
import { printJson } from '../json-out.js';

export const keysSpec: CommandSpec = {
  name: 'keys',
  usage:
    'cds keys create --account ID [--name X] [--data DIR]\n       cds keys revoke KEY_ID --account ID [--data ' +
    'DIR]\n       cds keys list --account ID [--data DIR]',
  summary:
    'Manages API keys (one active key per account). `create` prints one JSON line {"key_id":"key_…","api_key":"…"}; ' +
    'the secret is stored only as a hash and shown once. list (one JSON line per key) and revoke print keys as ' +
    'GET /v1/keys lists them (id, prefix, name, created_at, revoked_at, last_used_at, active).',
  options: { data: { type: 'string' }, account: { type: 'string' }, name: { type: 'string' } },
  help:
    'Options:\n  --account ID   the account (acc_…)\n  --name X       a label for the key\n  --data DIR     data ' +
    'directory (default ./data)\n',
};

export async function keys(argv: string[]): Promise<void> {
  const { values, positionals } = parse(keysSpec, argv);
  const [action, keyId] = positionals;
  if (typeof values.account !== 'string') throw new UsageError('--account is required');
  const config = loadConfig(argv);
  const state = await openState(config, ensureSecret(config));
  const now = systemClock.now();
  try {
    if (!(await state.getAccount(values.account))) throw new UsageError(`no account ${values.account}`);
    switch (action) {
      case 'create': {
        const { key, secret } = await state.createKey(values.account, {
          name: typeof values.name === 'string' ? values.name : null,
          now,
        });
        printJson({ key_id: key.id, api_key: secret });
        return;
      }
      case 'revoke': {
        if (!keyId) throw new UsageError('cds keys revoke needs a key id');
        printJson(keyView(await state.revokeKey(values.account, keyId, now)));
        return;
      }
      case 'list':
        for (const k of await state.listKeys(values.account)) printJson(keyView(k));
        return;
      default:
        throw new UsageError(`unknown action ${action ?? '(none)'}; use create, revoke or list`);
    }
  } finally {
    await state.close();
  }
}
