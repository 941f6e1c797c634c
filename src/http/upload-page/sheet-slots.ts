/**
 * Slots for the upload pages' sheet work (parsing a sheet, estimating, starting a run) shared fairly between
 * accounts and links, by the rule the engine's connection pool follows (src/engine/duckdb/connection-pool.ts):
 *
 * - a link (an upload id) holds at most one slot;
 * - an account holds at most half of the slots (at least one);
 * - the last free slot is kept for an account that holds none.
 *
 * A call's slot is taken at once or refused (the page answers 429 with Retry-After): an upload page is a person
 * waiting. A remote read (a sheet link, a file still arriving) holds no work slot while it waits on the network: once
 * its bytes are in it waits (`wait`, bounded) for one for the parse, served fewest-holding account first, so bytes
 * already read are not thrown away. Reads in flight are bounded separately (per account and in all) by a second
 * instance of this class.
 */
export class FairSlots {
  private readonly byTenant = new Map<string, number>();
  private readonly links = new Set<string>();
  private used = 0;
  private readonly waiters: Array<{ tenant: string; link: string; serve: (release: () => void) => void }> = [];

  constructor(readonly size: number) {}

  /** The most one account may hold. */
  get perTenant(): number {
    return Math.max(1, Math.floor(this.size / 2));
  }

  holding(tenant: string): number {
    return this.byTenant.get(tenant) ?? 0;
  }

  get inUse(): number {
    return this.used;
  }

  /**
   * Takes a slot for `tenant` and `link`: a release function (idempotent), or the reason it is refused: 'link'
   * (this link holds one), 'tenant' (this account holds its share) or 'busy' (none free for this account).
   */
  take(
    tenant: string,
    link: string,
  ): { ok: true; release: () => void } | { ok: false; reason: 'link' | 'tenant' | 'busy' } {
    if (this.links.has(link)) return { ok: false, reason: 'link' };
    const held = this.holding(tenant);
    if (held >= this.perTenant) return { ok: false, reason: 'tenant' };
    const free = this.size - this.used;
    // The last free slot goes only to an account holding none.
    if (free <= 0 || (free === 1 && held > 0)) return { ok: false, reason: 'busy' };
    this.used++;
    this.byTenant.set(tenant, held + 1);
    this.links.add(link);
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.used--;
        this.links.delete(link);
        const n = this.holding(tenant) - 1;
        if (n <= 0) this.byTenant.delete(tenant);
        else this.byTenant.set(tenant, n);
        this.serveWaiters();
      },
    };
  }

  /** A slot as `take` gives it, waiting up to `timeoutMs` for one; null past that. */
  async wait(tenant: string, link: string, timeoutMs: number): Promise<(() => void) | null> {
    const now = this.take(tenant, link);
    if (now.ok) return now.release;
    return new Promise((resolve) => {
      const waiter = {
        tenant,
        link,
        serve: (release: () => void) => {
          clearTimeout(timer);
          resolve(release);
        },
      };
      const timer = setTimeout(() => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        resolve(null);
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Serves the waiters a freed slot can go to, the account holding fewest first (first come among equals). */
  private serveWaiters(): void {
    for (;;) {
      const order = this.waiters
        .map((w, i) => ({ w, i }))
        .sort((x, y) => this.holding(x.w.tenant) - this.holding(y.w.tenant) || x.i - y.i);
      let served = false;
      for (const { w, i } of order) {
        const got = this.take(w.tenant, w.link);
        if (!got.ok) continue;
        this.waiters.splice(i, 1);
        w.serve(got.release);
        served = true;
        break;
      }
      if (!served) return;
    }
  }
}
