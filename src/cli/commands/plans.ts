import { ensureSecret, loadConfig } from '../../config.js';
import { planView } from '../../operations/account/get-account.js';
import { openState } from '../../services.js';
import { type CommandSpec, parse } from '../args.js';
import { printJson } from '../json-out.js';

export const plansSpec: CommandSpec = {
  name: 'plans',
  usage: 'cds plans [--data DIR]',
  summary: 'Prints the plans (defaults plus overrides from DIR/plans.json), one JSON line each.',
  options: { data: { type: 'string' } },
  help: 'Options:\n  --data DIR   data directory (default ./data)\n',
};

export async function plans(argv: string[]): Promise<void> {
  parse(plansSpec, argv);
  const config = loadConfig(argv);
  const state = await openState(config, ensureSecret(config));
  try {
    for (const p of state.listPlans()) printJson(planView(p));
  } finally {
    await state.close();
  }
}
