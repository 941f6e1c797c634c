import type { FunctionCue } from './function-rules.js';
import type { PhraseHit } from './phrase-table.js';
import type { JobFunction } from './types.js';

/**
 * The strongest cue wins; among equals the first noun group wins ("VP, Sales & Marketing" is
 * sales, "Head of Sales for Healthcare" is sales), and inside a group the last word, which is
 * the head noun in English ("Software Sales Representative" is sales, "Data Engineer" an engineer).
 */
export function pickFunction(hits: readonly PhraseHit<FunctionCue>[]): JobFunction {
  let best: PhraseHit<FunctionCue> | null = null;
  for (const hit of hits) {
    if (hit.value.fn === null) continue;
    if (best === null || outranks(hit, best)) best = hit;
  }
  return best?.value.fn ?? 'other';
}

function outranks(a: PhraseHit<FunctionCue>, b: PhraseHit<FunctionCue>): boolean {
  if (a.value.tier !== b.value.tier) return a.value.tier > b.value.tier;
  if (a.clause !== b.clause) return a.clause < b.clause;
  return a.start > b.start;
}
