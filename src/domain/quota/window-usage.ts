import type { WindowUsage } from '../credits.js';
import type { PacedWindow } from './binding.js';

/** cap - used - held, never negative (a cap lowered below usage reads as 0, not as a debt). */
export function remainingOf(w: WindowUsage): number {
  return Math.max(0, w.cap - w.used - w.held);
}

export function pacedOf(w: WindowUsage): PacedWindow {
  return {
    start: new Date(w.start ?? 0),
    resetsAt: new Date(w.resetsAt),
    consumed: w.used + w.held,
    remaining: remainingOf(w),
  };
}

/** The window with the least remaining; ties keep the first. */
export function tightest(windows: readonly WindowUsage[]): WindowUsage {
  return windows.reduce((a, b) => (remainingOf(b) < remainingOf(a) ? b : a));
}
