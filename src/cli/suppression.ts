import type { Config } from '../config.js';
import { ensureSecret } from '../config.js';
import { type Suppression, suppressionOf } from '../domain/suppression.js';
import { openState } from '../services.js';

/**
 * The opt-out list of the deployment's state store (the one `cds optout` and the admin routes change) as the
 * suppression list a load applies: `cds load` and `cds seed` never publish a person on it.
 */
export async function stateSuppression(config: Config): Promise<Suppression> {
  const state = await openState(config, ensureSecret(config));
  try {
    return suppressionOf(await state.allOptOuts());
  } finally {
    await state.close();
  }
}
