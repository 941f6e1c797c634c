import type { Clock } from '../domain/clock.js';
import type { Hold } from '../domain/credits.js';
import { isAppError } from '../domain/errors/index.js';
import type { StateStore } from '../state/port.js';

/** How long a request's hold survives without renewal; renewed every third of it while the request lives. */
export const HOLD_LEASE_MS = 60_000;

/**
 * The leases of this process's live request holds. A hold is reserved with a lease (`leaseUntil`), tracked until
 * it settles, and renewed on a timer, so another process sweeping orphans (at its start, and every lease period
 * while it serves) releases only the holds of processes that died. Holds of jobs carry no lease.
 *
 * A settlement the store could not take at the moment (Redis or the state file briefly unreachable) is kept: the
 * hold stays tracked, and the charge or release is retried on every tick until it lands. The limit: while this
 * process cannot reach the store it cannot renew the lease either, so if the outage outlasts the lease (60 s) and
 * another process that can reach the store sweeps the hold, the late charge finds it released and those rows go
 * unpaid (reported by `onLost`: an error in the log). Errors fall on the customer's side, never a double charge.
 */
export class HoldLeases {
  private readonly live = new Set<string>();
  /** Holds whose settlement failed: charge (or null: release) to retry. */
  private readonly unsettled = new Map<string, number | null>();
  private timer: NodeJS.Timeout | null = null;
  private lastSweep = 0;
  /** Told of each charge the store committed (the settled hold); the composition root counts it in the metrics. */
  onCharged: (hold: Hold) => void = () => {};
  /**
   * Told of a charge that found its hold already released (another process swept it: this one stalled past its
   * lease): the rows were delivered unpaid. The composition root logs it; the store's answer is never a double charge.
   */
  onLost: (hold: Hold, charge: number) => void = () => {};

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

  /**
   * Charges `charge` from a tracked hold (null: releases it) and stops tracking it. Never throws: when the store
   * cannot take it now, the hold keeps its lease and the settlement is retried by `tick`.
   */
  async settle(holdId: string, charge: number | null, now: Date): Promise<void> {
    try {
      await this.land(holdId, charge, now);
      this.untrack(holdId);
    } catch (err) {
      this.unsettled.set(holdId, charge);
      this.onError(err);
    }
  }

  private async land(holdId: string, charge: number | null, now: Date): Promise<void> {
    if (charge === null) {
      await this.state.releaseHold(holdId, now);
      return;
    }
    const hold = await this.state.commit(holdId, charge, now);
    if (hold.status === 'committed') this.onCharged(hold);
    else if (charge > 0) this.onLost(hold, charge);
  }

  /** Settlements waiting for the store to come back. */
  get pendingSettlements(): number {
    return this.unsettled.size;
  }

  /**
   * Renews the live holds, retries settlements that failed, and, once a lease period has passed, releases the
   * holds of dead processes.
   */
  async tick(): Promise<void> {
    const now = this.clock.now();
    const errors: unknown[] = [];
    if (this.live.size > 0)
      await this.state
        .renewHoldLeases([...this.live], new Date(now.getTime() + this.leaseMs))
        .catch((e: unknown) => errors.push(e));
    for (const [holdId, charge] of [...this.unsettled]) {
      try {
        await this.land(holdId, charge, now);
      } catch (e) {
        errors.push(e);
        // The store is down for now: keep it for the next tick. Anything else (the hold is gone) will not change.
        if (isAppError(e) && e.code === 'data.unavailable') continue;
      }
      this.unsettled.delete(holdId);
      this.untrack(holdId);
    }
    if (errors.length > 0) this.onError(errors[0]);
    if (now.getTime() - this.lastSweep >= this.leaseMs) {
      this.lastSweep = now.getTime();
      const released = await this.state.releaseOrphanHolds(now);
      if (released > 0) this.onSwept(released);
    }
  }

  start(): void {
    this.lastSweep = this.clock.now().getTime();
    let busy = false;
    const safeTick = () => {
      if (busy) return;
      busy = true;
      // A state store that is down is reported by health; the next tick tries again.
      this.tick()
        .catch((err: unknown) => this.onError(err))
        .finally(() => {
          busy = false;
        });
    };
    this.timer = setInterval(safeTick, Math.max(1000, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  /**
   * Stops renewing. Settlements still waiting for the store are reported (with their charges): their holds are
   * released by the lease sweep of another process (or of this one at its next start), so those rows go unpaid.
   */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.unsettled.size > 0)
      this.onError(new Error(`settlements never landed: ${JSON.stringify([...this.unsettled])}`));
  }
}
