/**
 * Which of the day and month windows binds (spec Quota `binding`: "the window that runs out first at the current
 * pace").
 */
export type Binding = 'day' | 'month';

export interface PacedWindow {
  start: Date;
  resetsAt: Date;
  /** Credits consumed in the window so far: used plus held. */
  consumed: number;
  /** Credits left, never negative. */
  remaining: number;
}

/**
 * Pace is floored at one minute of elapsed time so that a burst in the first seconds of a window does not
 * extrapolate to an infinite rate.
 */
const MIN_ELAPSED_MS = 60_000;

/** Milliseconds until the window has nothing left at its current pace: 0 when spent, Infinity when idle. */
export function timeToRunOut(w: PacedWindow, now: Date): number {
  if (w.remaining <= 0) return 0;
  if (w.consumed <= 0) return Infinity;
  const pace = w.consumed / Math.max(now.getTime() - w.start.getTime(), MIN_ELAPSED_MS);
  return w.remaining / pace;
}

/**
 * The binding window, precisely:
 * - pace = consumed / elapsed part of the window; a window "runs out" when its remaining is 0, or when
 *   remaining / pace is at most the time left until it resets;
 * - exactly one runs out: that one binds; both: the one that runs out sooner (ties: month, because a day
 *   reset does not help while the month is spent);
 * - neither: the one with less remaining (ties: month).
 */
export function bindingWindow(day: PacedWindow, month: PacedWindow, now: Date): Binding {
  const tDay = timeToRunOut(day, now);
  const tMonth = timeToRunOut(month, now);
  const dayOut = tDay <= day.resetsAt.getTime() - now.getTime();
  const monthOut = tMonth <= month.resetsAt.getTime() - now.getTime();
  if (dayOut && monthOut) return tDay < tMonth ? 'day' : 'month';
  if (dayOut) return 'day';
  if (monthOut) return 'month';
  return day.remaining < month.remaining ? 'day' : 'month';
}
