/** Injected clock (ARCHITECTURE rule 8): billing windows, resets, expiry and job timing read it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and move. */
export class SettableClock implements Clock {
  private t: number;
  constructor(start: Date | string | number) {
    this.t = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.t);
  }
  set(t: Date | string | number): void {
    this.t = new Date(t).getTime();
  }
  advance(ms: number): void {
    this.t += ms;
  }
}
