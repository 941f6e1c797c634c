/** Dates as day numbers (days since 1970-01-01 UTC); formatted through a cache because every row prints several. */

export const DAY_MS = 86_400_000;

export function dayOf(date: Date): number {
  return Math.floor(date.getTime() / DAY_MS);
}

export function dayOfYmd(year: number, month: number, day: number): number {
  return Math.floor(Date.UTC(year, month - 1, day) / DAY_MS);
}

export function yearOfDay(day: number): number {
  return new Date(day * DAY_MS).getUTCFullYear();
}

/** Formats day numbers in a window as YYYY-MM-DD / YYYY-MM from precomputed strings. */
export class DayFormatter {
  private readonly first: number;
  private readonly ymd: string[] = [];

  constructor(firstDay: number, lastDay: number) {
    this.first = firstDay;
    for (let d = firstDay; d <= lastDay; d++) this.ymd.push(new Date(d * DAY_MS).toISOString().slice(0, 10));
  }

  ymdOf(day: number): string {
    return this.ymd[day - this.first] ?? new Date(day * DAY_MS).toISOString().slice(0, 10);
  }

  monthOf(day: number): string {
    return this.ymdOf(day).slice(0, 7);
  }
}
