import { AppError } from '../domain/errors/index.js';
import type { StateStore } from './port.js';

/**
 * Stands in for a state store that could not be opened (an unreadable or corrupt file): health reports it,
 * and every call answers 503 data.unavailable instead of crashing the process.
 */
export function unavailableStateStore(reason: string): StateStore {
  const fail = () => {
    throw new AppError('data.unavailable', 'Account data is unavailable for a short time.', {
      hint: 'Retry in a minute; the operator has been told.',
      details: { component: 'state' },
    });
  };
  return new Proxy({} as StateStore, {
    get(_t, prop) {
      if (prop === 'ping') return () => false;
      if (prop === 'close') return () => undefined;
      if (prop === 'releaseOrphanHolds') return () => 0;
      if (prop === 'unavailableReason') return reason;
      return fail;
    },
  });
}
