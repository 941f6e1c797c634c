import { AppError } from '../domain/errors/index.js';
import type { StateStore } from './port.js';

/**
 * Stands in for a state store that could not be opened (an unreadable or corrupt file): health reports it,
 * and every call answers 503 data.unavailable instead of crashing the process.
 */
export function unavailableStateStore(reason: string): StateStore {
  const unavailable = () =>
    new AppError('data.unavailable', 'Account data is unavailable for a short time.', {
      hint: 'Retry in a minute; the operator has been told.',
      details: { component: 'state' },
    });
  const fail = async () => {
    throw unavailable();
  };
  // listPlans and getPlan are synchronous in the port: they throw rather than hand back a rejected promise.
  const failNow = () => {
    throw unavailable();
  };
  return new Proxy({} as StateStore, {
    get(_t, prop) {
      // Not a thenable: an async function returning this store must not take it for a promise.
      if (prop === 'then') return undefined;
      if (prop === 'ping') return async () => false;
      if (prop === 'close') return async () => undefined;
      if (prop === 'releaseOrphanHolds') return async () => 0;
      if (prop === 'unavailableReason') return reason;
      if (prop === 'listPlans' || prop === 'getPlan') return failNow;
      return fail;
    },
  });
}
