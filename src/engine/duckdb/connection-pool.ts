import type { DuckDBConnection } from '@duckdb/node-api';
import { AppError } from '../../domain/errors/index.js';

interface Waiter {
  resolve: (c: DuckDBConnection) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * A fixed set of connections, one query at a time on each (ARCHITECTURE rule 9): a DuckDB connection
 * runs one statement at a time, and `interrupt()` stops whatever its connection runs, so sharing one
 * between two queries would let one budget kill the other's work. Callers queue in arrival order.
 */
export class ConnectionPool {
  private readonly idle: DuckDBConnection[];
  private readonly waiters: Waiter[] = [];
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

  /** A free connection, or `query.timeout` once `deadline` (epoch ms) passes while waiting. */
  acquire(deadline: number): Promise<DuckDBConnection> {
    if (this.closed) return Promise.reject(new AppError('data.unavailable', 'The release is closing.'));
    const free = this.idle.pop();
    if (free) return Promise.resolve(free);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
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
    });
  }

  putBack(conn: DuckDBConnection): void {
    const next = this.waiters.shift();
    if (next) {
      clearTimeout(next.timer);
      next.resolve(conn);
    } else {
      this.idle.push(conn);
    }
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
}
