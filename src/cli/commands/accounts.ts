import { ensureSecret, loadConfig } from '../../config.js';
import { systemClock } from '../../domain/clock.js';
import { accountView } from '../../operations/admin/accounts.js';
import { keyView } from '../../operations/keys/keys.js';
import { openState } from '../../services.js';
import { type CommandSpec, intOption, parse, UsageError } from '../args.js';
import { printJson } from '../json-out.js';

export const accountsSpec: CommandSpec = {
  name: 'accounts',
  usage:
    'cds accounts create --plan SLUG [--name X] [--billing-day D] [--data DIR]\n       cds accounts ' +
    'show|suspend|resume ID [--data DIR]\n       cds accounts list [--data DIR]',
  summary:
    'Manages accounts in the state store. `create` prints exactly one JSON line {"account_id":"acc_…",' +
    '"api_key":"…"}; the key is shown only once. list prints one JSON line per account, and show, suspend and ' +
    'resume print the account with its keys, with the fields GET /v1/account answers (id, name, status, ' +
    'billing_day, created_at, plan) and keys as GET /v1/keys lists them.',
  options: {
    data: { type: 'string' },
    plan: { type: 'string' },
    name: { type: 'string' },
    'billing-day': { type: 'string' },
  },
  help:
    'Options:\n  --plan SLUG         plan (see cds plans): free, starter, pro, unlimited, or one from ' +
    'DIR/plans.json\n  --name X            account name\n  --billing-day D     day of month (1-28) the billing ' +
    'month starts; omitted = UTC calendar month\n  --data DIR          data directory (default ./data)\n',
};

export async function accounts(argv: string[]): Promise<void> {
  const { values, positionals } = parse(accountsSpec, argv);
  const [action, id] = positionals;
  const config = loadConfig(argv);
  const state = await openState(config, ensureSecret(config));
  const now = systemClock.now();
  try {
    switch (action) {
      case 'create': {
        if (typeof values.plan !== 'string') throw new UsageError('--plan is required');
        if (!state.getPlan(values.plan))
          throw new UsageError(
            `unknown plan ${values.plan}; plans: ${state
              .listPlans()
              .map((p) => p.slug)
              .join(', ')}`,
          );
        const account = await state.createAccount({
          name: typeof values.name === 'string' ? values.name : 'account',
          plan: values.plan,
          billingDay: intOption(values['billing-day'], '--billing-day', 1, 28) ?? null,
          now,
        });
        const { secret } = await state.createKey(account.id, { name: 'default', now });
        printJson({ account_id: account.id, api_key: secret });
        return;
      }
      case 'list':
        for (const a of await state.listAccounts()) printJson(accountView(state, a));
        return;
      case 'show':
      case 'suspend':
      case 'resume': {
        if (!id) throw new UsageError(`cds accounts ${action} needs an account id`);
        if (!(await state.getAccount(id))) throw new UsageError(`no account ${id}`);
        const account =
          action === 'show'
            ? (await state.getAccount(id))!
            : await state.setAccountStatus(id, action === 'suspend' ? 'suspended' : 'active');
        printJson({ ...accountView(state, account), keys: (await state.listKeys(id)).map(keyView) });
        return;
      }
      default:
        throw new UsageError(`unknown action ${action ?? '(none)'}; use create, list, show, suspend or resume`);
    }
  } finally {
    await state.close();
  }
}
