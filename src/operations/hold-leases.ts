import type { Clock } from '../domain/clock.js';
import type { StateStore } from '../state/port.js';

/** How long a request's hold survives without renewal; renewed every third of it while the request lives. */
export const HOLD_LEASE_MS = 60_000;

/**
 * The leases of this process's live request holds. A hold is reserved with a lease (`leaseUntil`), tracked until
 * it settles, and renewed on a timer, so another process sweeping orphans (at its start, and every lease period
 * while it serves) releases only the holds of processes that died. Holds of jobs carry no lease.
 */
export class HoldLeases {
  private readonly live = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private lastSweep = 0;

  constructor(
    private readonly state: StateStore,
    private readonly clock: Clock,
    private readonly onSwept: (released: number) => void = () => {},
    private readonly onError: (err: unknown) => void = () => {},
    readonly leaseMs = HOLD_LEASE_MS,
  ) {}

  /** The lease a new hold takes. */
  leaseUntil(): Date {
    return new Date(this.clock.now().getTime() + this.leaseMs);
  }

  track(holdId: string): void {
    this.live.add(holdId);
  }

  untrack(holdId: string): void {
    this.live.delete(holdId);
  }

  /** Renews the live holds and, once a lease period has passed, releases the holds of dead processes. */
  tick(): void {
    const now = this.clock.now();
    if (this.live.size > 0) this.state.renewHoldLeases([...this.live], new Date(now.getTime() + this.leaseMs));
    if (now.getTime() - this.lastSweep >= this.leaseMs) {
      this.lastSweep = now.getTime();
      const released = this.state.releaseOrphanHolds(now);
      if (released > 0) this.onSwept(released);
    }
  }

  start(): void {
    this.lastSweep = this.clock.now().getTime();
    const safeTick = () => {
      try {
        this.tick();
      } catch (err) {
        this.onError(err); // a state store that is down is reported by health; the next tick tries again
      }
    };
    this.timer = setInterval(safeTick, Math.max(1000, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
