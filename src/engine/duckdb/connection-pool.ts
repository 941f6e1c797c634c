import type { DuckDBConnection } from '@duckdb/node-api';
import { AppError } from '../../domain/errors/index.js';

interface Waiter {
  tenant: string;
  resolve: (c: DuckDBConnection) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

/** The tenant of queries that name none (health, cached counts, internal reads). */
export const SYSTEM_TENANT = '-';

/**
 * A fixed set of connections, one query at a time on each (ARCHITECTURE rule 9): a DuckDB connection runs one
 * statement at a time, and `interrupt()` stops whatever its connection runs, so sharing one between two queries
 * would let one budget kill the other's work.
 *
 * Shared fairly between tenants (accounts): no tenant holds more than half the connections; the last free
 * connection is kept for a tenant that holds none, so a newcomer is served at once however many queries other
 * accounts keep running; and when a connection frees, the waiter whose tenant holds the fewest goes first
 * (arrival order among equals). One account can thus never take the engine from the others.
 */
export class ConnectionPool {
  private readonly idle: DuckDBConnection[];
  private readonly waiters: Waiter[] = [];
  private readonly held = new Map<string, number>();
  private readonly owner = new Map<DuckDBConnection, string>();
  private closed = false;

  constructor(private readonly all: readonly DuckDBConnection[]) {
    this.idle = [...all];
  }

  get size(): number {
    return this.all.length;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  /** Connections a tenant holds now. */
  holding(tenant: string): number {
    return this.held.get(tenant) ?? 0;
  }

  /** A free connection, or `query.timeout` once `deadline` (epoch ms) passes while waiting. */
  acquire(deadline: number, tenant: string = SYSTEM_TENANT): Promise<DuckDBConnection> {
    if (this.closed) return Promise.reject(new AppError('data.unavailable', 'The release is closing.'));
    if (this.waiters.length === 0 && this.mayTake(tenant)) return Promise.resolve(this.give(tenant));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        tenant,
        resolve,
        reject,
        timer: setTimeout(
          () => {
            const i = this.waiters.indexOf(waiter);
            if (i >= 0) this.waiters.splice(i, 1);
            reject(new AppError('query.timeout', 'The query waited for a free connection past its time budget.'));
          },
          Math.max(0, deadline - Date.now()),
        ),
      };
      this.waiters.push(waiter);
      this.dispatch();
    });
  }

  putBack(conn: DuckDBConnection): void {
    const tenant = this.owner.get(conn);
    this.owner.delete(conn);
    if (tenant !== undefined) {
      const n = this.holding(tenant) - 1;
      if (n > 0) this.held.set(tenant, n);
      else this.held.delete(tenant);
    }
    this.idle.push(conn);
    this.dispatch();
  }

  /** Closes every connection; call only when none is in use (the release tracks that). */
  close(): void {
    this.closed = true;
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.reject(new AppError('data.unavailable', 'The release closed.'));
    }
    for (const c of this.all) c.closeSync();
  }

  /** At most half the connections per tenant; the last free connection goes only to a tenant that holds none. */
  private mayTake(tenant: string): boolean {
    if (this.idle.length === 0) return false;
    const held = this.holding(tenant);
    if (held >= Math.max(1, Math.floor(this.size / 2))) return false;
    return this.idle.length > 1 || held === 0 || this.size === 1;
  }

  private give(tenant: string): DuckDBConnection {
    const conn = this.idle.pop()!;
    this.owner.set(conn, tenant);
    this.held.set(tenant, this.holding(tenant) + 1);
    return conn;
  }

  /** Serves waiters while connections are free: fewest held first, arrival order among equals. */
  private dispatch(): void {
    while (this.idle.length > 0 && this.waiters.length > 0) {
      let best = -1;
      for (let i = 0; i < this.waiters.length; i++) {
        const w = this.waiters[i]!;
        if (!this.mayTake(w.tenant)) continue;
        if (best < 0 || this.holding(w.tenant) < this.holding(this.waiters[best]!.tenant)) best = i;
      }
      if (best < 0) return;
      const [w] = this.waiters.splice(best, 1);
      clearTimeout(w!.timer);
      w!.resolve(this.give(w!.tenant));
    }
  }
}
