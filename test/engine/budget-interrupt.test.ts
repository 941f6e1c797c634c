import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { seedRelease } from '../../loaders/seed.js';
import { AppError } from '../../src/domain/errors/index.js';
import { type DuckDBEngine, openDuckDBEngine } from '../../src/engine/duckdb/duckdb-engine.js';
import { runInterruptible } from '../../src/engine/duckdb/interruptible.js';

/**
 * A statement past its budget must stop, however early the deadline comes. DuckDB forgets an interrupt that arrives
 * before the statement executes (it clears the flag when a statement is prepared and again when it starts), and the
 * driver runs a statement with parameters as three thread-pool tasks: a deadline reached before the last one began
 * (a loaded machine, or a connection handed over at its deadline) left a heavy count running for minutes, holding
 * its connection, so `close()` waited for it (a CI run's afterAll timed out in fair-share.test.ts).
 */

/** Minutes of work on one thread if nothing stops it. */
const HEAVY = 'SELECT count(*) AS n FROM range(100000000000) t(i) WHERE i % 7 = 3';

/** Blocks the event loop, as a loaded machine does to a process that does not get the CPU. */
function stall(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // busy
  }
}

/** How a promise ends within `ms`: 'ok', the error's code or message, or 'pending'. */
async function outcome(p: Promise<unknown>, ms: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const pending = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('pending'), ms);
  });
  const ended = p.then(
    () => 'ok',
    (e: unknown) => (e instanceof AppError ? e.code : String((e as Error).message)),
  );
  try {
    return await Promise.race([ended, pending]);
  } finally {
    clearTimeout(timer);
  }
}

describe('runInterruptible on a real DuckDB connection', () => {
  let inst: DuckDBInstance;
  let conn: DuckDBConnection;
  beforeAll(async () => {
    inst = await DuckDBInstance.create(':memory:', { threads: '1' });
    conn = await inst.connect();
  });
  afterAll(() => {
    // Stops whatever a failed test left running before the connection closes under it.
    conn.interrupt();
    conn.closeSync();
    inst.closeSync();
  });

  it('stops a statement whose deadline passed before DuckDB began executing it', async () => {
    // A single interrupt issued here, before the driver's extract/prepare/execute tasks ran, is forgotten.
    const s = runInterruptible(conn, HEAVY, [], Date.now());
    expect(await outcome(s.expired, 1000)).toBe('query.timeout');
    expect(await outcome(s.settled, 3000)).toMatch(/interrupt/i);
    expect(s.timedOut).toBe(true);
    // The connection is free and answers the next statement (a flag left set is cleared when it starts).
    const next = runInterruptible(conn, 'SELECT 41 + 1 AS x', [], Date.now() + 5000);
    expect((await next.settled).getRowObjectsJS()).toEqual([{ x: 42 }]);
    expect(next.timedOut).toBe(false);
  });

  it('answers a statement that ends before its deadline, and never interrupts it', async () => {
    const s = runInterruptible(conn, 'SELECT $1::INTEGER * 2 AS x', [21], Date.now() + 5000);
    expect((await s.settled).getRowObjectsJS()).toEqual([{ x: 42 }]);
    expect(await outcome(s.expired, 50)).toBe('pending');
    expect(s.timedOut).toBe(false);
  });
});

describe('the engine stops statements past their budget, however early the deadline comes', () => {
  let dataDir: string;
  let engine: DuckDBEngine;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cds-interrupt-'));
    await seedRelease({ dataDir, contacts: 200, companies: 20, seed: 7, asOf: new Date('2026-11-01T00:00:00Z') });
    // One connection: a heavy statement that is not stopped keeps the next query waiting.
    engine = await openDuckDBEngine({ dataDir, poolSize: 1, threads: 1, memoryLimit: '512MB', pointReaders: 1 });
  }, 60_000);
  afterAll(async () => {
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The pool's only connection answers again: the statement before it has stopped. */
  async function connectionFree(): Promise<void> {
    expect(await engine.run('SELECT 41 + 1 AS x', [], { budgetMs: 4000 })).toEqual([{ x: 42 }]);
  }

  it('budgets shorter than starting the statement: each answers query.timeout and frees its connection', async () => {
    for (const budgetMs of [0, 1, 2, 5, 10, 25]) {
      const t0 = Date.now();
      expect(await outcome(engine.run(HEAVY, [], { budgetMs }), 2000)).toBe('query.timeout');
      expect(Date.now() - t0).toBeLessThan(budgetMs + 1000);
      await connectionFree();
    }
  });

  /**
   * A heavy statement with `budgetMs` whose event loop, once the statement reached the driver, is held `stallMs`
   * past its deadline (a loaded machine): the driver's next task is started only after the deadline's interrupt.
   */
  async function stalledHeavy(budgetMs: number, stallMs: number): Promise<string> {
    const heavy = outcome(engine.run(HEAVY, [], { budgetMs }), 3000);
    await new Promise((r) => setImmediate(r));
    stall(stallMs);
    return heavy;
  }

  it('an event loop stalled past the deadline while the statement is being prepared (a loaded machine)', async () => {
    expect(await stalledHeavy(20, 150)).toBe('query.timeout');
    await connectionFree();
  });

  it('close() returns soon after the budget of a statement it waits for', async () => {
    expect(await stalledHeavy(1, 50)).toBe('query.timeout');
    const t0 = Date.now();
    await engine.close();
    expect(Date.now() - t0).toBeLessThan(3000);
  });
});
