import type { DuckDBConnection, DuckDBResultReader, DuckDBValue } from '@duckdb/node-api';
import { AppError } from '../../domain/errors/index.js';

/** How often a statement past its deadline is interrupted again, until it has stopped. */
export const REINTERRUPT_MS = 25;

/** One statement running on a connection under a deadline (`runInterruptible`). */
export interface InterruptibleStatement {
  /** Settles once DuckDB is done with the statement: its rows, its error, or the interrupt's error. */
  readonly settled: Promise<DuckDBResultReader>;
  /**
   * Rejects with `query.timeout` at the deadline, if the statement has not settled by then (else never settles;
   * a rejection nobody awaits is not reported as unhandled).
   */
  readonly expired: Promise<never>;
  /** The deadline passed before the statement settled (it was interrupted). */
  readonly timedOut: boolean;
}

/**
 * Runs one statement on `conn`; from `deadline` (epoch ms) on, the statement is interrupted, and interrupted again
 * every REINTERRUPT_MS until it has settled.
 *
 * One interrupt is not enough: DuckDB forgets one that comes before the statement executes. It clears the
 * connection's interrupt flag when it begins to prepare a statement and again when it begins to execute one
 * (ClientContext::InitialCleanup), and the driver runs a statement with parameters as three tasks on libuv's
 * thread pool (extract, prepare, execute), each started from the event loop when the one before returned. A
 * deadline that passes before the execute task has begun (a busy thread pool or a stalled event loop on a loaded
 * machine, or a connection handed over from the pool at its deadline) thus left the statement running to its end
 * (a heavy count: minutes), holding its connection and the release open. Interrupting again until the statement
 * settles reaches it once it executes; a flag left set after it settled is cleared by the next statement's start.
 */
export function runInterruptible(
  conn: DuckDBConnection,
  sql: string,
  params: DuckDBValue[],
  deadline: number,
  message?: string,
): InterruptibleStatement {
  let timer: NodeJS.Timeout | undefined;
  let again: NodeJS.Timeout | undefined;
  let done = false;
  let timedOut = false;
  const settled = conn.runAndReadAll(sql, params).finally(() => {
    // Before anyone reuses the connection (whoever chains on `settled` runs after this).
    done = true;
    clearTimeout(timer);
    clearInterval(again);
  });
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        if (done) return;
        timedOut = true;
        conn.interrupt();
        again = setInterval(() => conn.interrupt(), REINTERRUPT_MS);
        reject(new AppError('query.timeout', message));
      },
      Math.max(0, deadline - Date.now()),
    );
  });
  expired.catch(() => {});
  return {
    settled,
    expired,
    get timedOut() {
      return timedOut;
    },
  };
}
