import type { Warning } from './types.js';

/** `no_rows`: names the keys applied and asks for one to be removed. */
export function noRowsWarning(keysApplied: readonly string[]): Warning {
  const last = keysApplied[keysApplied.length - 1];
  return {
    code: 'no_rows',
    message: 'No rows match the filter.',
    hint:
      keysApplied.length > 0
        ? `Remove a key to widen the audience, for example ${last}.`
        : 'The data release holds no rows.',
    keys_applied: [...keysApplied],
  };
}

export function countUnavailableWarning(budgetMs: number): Warning {
  return {
    code: 'count_unavailable',
    message: `The count did not finish inside its ${budgetMs / 1000} second budget.`,
    hint: 'Narrow the filter, or retry: a repeated count is often faster.',
  };
}
