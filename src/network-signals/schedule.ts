/** Alert schedules: every `interval_minutes` (60 to 43,200, i.e. hourly to every 30 days). */
export const MIN_INTERVAL_MINUTES = 60;
export const MAX_INTERVAL_MINUTES = 43_200;
export const DEFAULT_INTERVAL_MINUTES = 1_440;

/**
 * The next slot after `now` on the grid that starts at `due` and steps by the interval. Runs keep their
 * rhythm (no drift from late ticks) and slots missed while the service was down are skipped, not replayed.
 */
export function nextSlot(due: string | Date, intervalMinutes: number, now: Date): string {
  const step = intervalMinutes * 60_000;
  const start = new Date(due).getTime();
  const t = now.getTime();
  if (start > t) return new Date(start).toISOString();
  const k = Math.floor((t - start) / step) + 1;
  return new Date(start + k * step).toISOString();
}
