import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { seedRelease } from '../../loaders/seed.js';
import type { AppError } from '../../src/domain/errors/index.js';
import { parseContactFilter } from '../../src/domain/query/index.js';
import { ConnectionPool } from '../../src/engine/duckdb/connection-pool.js';
import { type DuckDBEngine, openDuckDBEngine } from '../../src/engine/duckdb/duckdb-engine.js';

/**
 * One tenant must not take the engine from the others (hardening review): four heavy free counts from two keys
 * held all four connections while other accounts' searches answered 504. The pool keeps its last connection for
 * a tenant that holds none and serves the tenant holding fewest first; budgets answer on time even while DuckDB
 * has not yet reached the interrupt, and the statements do stop (the release closes soon after).
 */

describe('ConnectionPool fairness', () => {
  let inst: DuckDBInstance;
  let pool: ConnectionPool;
  beforeAll(async () => {
    inst = await DuckDBInstance.create(':memory:');
    pool = new ConnectionPool(await Promise.all([1, 2, 3, 4].map(() => inst.connect())));
  });
  afterAll(() => {
    pool.close();
    inst.closeSync();
  });

  it('keeps the last free connection for a tenant that holds none', async () => {
    const far = Date.now() + 10_000;
    const a1 = await pool.acquire(far, 'a');
    const a2 = await pool.acquire(far, 'a');
    const b1 = await pool.acquire(far, 'b');
    // One connection is free, but a and b already hold some: they wait; c holds none and gets it.
    const a3 = pool.acquire(far, 'a');
    const b2 = pool.acquire(far, 'b');
    const c1 = await pool.acquire(far, 'c');
    expect(pool.waiting).toBe(2);
    // a frees one: the single free connection stays for a newcomer, and d gets it at once.
    pool.putBack(a1);
    expect(pool.waiting).toBe(2);
    const d1 = await pool.acquire(far, 'd');
    // Two free: the waiters are served while one would stay free (a first: a and b hold one each, a came first).
    pool.putBack(d1);
    pool.putBack(c1);
    const a3conn = await a3;
    expect([pool.holding('a'), pool.waiting]).toEqual([2, 1]);
    pool.putBack(a2);
    const b2conn = await b2;
    for (const c of [b1, b2conn, a3conn]) pool.putBack(c);
    expect(pool.waiting).toBe(0);
    expect(['a', 'b', 'c', 'd'].map((t) => pool.holding(t))).toEqual([0, 0, 0, 0]);
  });

  it('a freed connection goes to the waiting tenant that holds the fewest; no tenant holds more than half', async () => {
    const six = new ConnectionPool(await Promise.all([1, 2, 3, 4, 5, 6].map(() => inst.connect())));
    const tick = () => new Promise((done) => setImmediate(done));
    try {
      const far = Date.now() + 10_000;
      const r = [await six.acquire(far, 'r'), await six.acquire(far, 'r')];
      const p = [await six.acquire(far, 'p'), await six.acquire(far, 'p'), await six.acquire(far, 'p')];
      const q = await six.acquire(far, 'q');
      const served: string[] = [];
      const mark = (tenant: string) => (c: DuckDBConnection) => {
        served.push(tenant);
        return c;
      };
      const pFourth = six.acquire(far, 'p').then(mark('p')); // p already holds half the pool
      const qSecond = six.acquire(far, 'q').then(mark('q'));
      const rThird = six.acquire(far, 'r').then(mark('r')); // asks last
      six.putBack(r[0]!);
      await tick();
      expect(served).toEqual([]); // one free connection: kept for a tenant holding none
      six.putBack(r[1]!);
      await tick();
      expect(served).toEqual(['r']); // r now holds none: first, though it asked last
      six.putBack(p[0]!);
      await tick();
      expect(served).toEqual(['r', 'q']); // q holds 1, p holds 2
      six.putBack(p[1]!);
      await tick();
      expect(served).toEqual(['r', 'q', 'p']);
      for (const c of [p[2]!, q, await pFourth, await qSecond, await rThird]) six.putBack(c);
      expect(six.waiting).toBe(0);
    } finally {
      six.close();
    }
  });

  it('a waiter past its deadline gets query.timeout', async () => {
    const far = Date.now() + 10_000;
    const held = [await pool.acquire(far, 'x'), await pool.acquire(far, 'x'), await pool.acquire(far, 'w')];
    const last = await pool.acquire(far, 'y');
    const late = pool.acquire(Date.now() + 50, 'z');
    await expect(late).rejects.toMatchObject({ code: 'query.timeout' });
    for (const c of [...held, last]) pool.putBack(c);
  });
});

interface Outcome {
  tenant: string;
  code: string;
  ms: number;
}

describe('the engine under heavy queries from two tenants', () => {
  let dataDir: string;
  let engine: DuckDBEngine;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cds-fair-'));
    await seedRelease({ dataDir, contacts: 1500, companies: 150, seed: 5, asOf: new Date('2026-11-01T00:00:00Z') });
    engine = await openDuckDBEngine({ dataDir, poolSize: 4, threads: 1, memoryLimit: '1GB', pointReaders: 1 });
  }, 60_000);
  afterAll(async () => {
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('four heavy counts from two tenants: a third tenant is answered at once; the heavy ones time out on budget', async () => {
    const HEAVY = 'SELECT count(*) AS n FROM range(100000000000) t(i) WHERE i % 7 = 3';
    const budget = 1500;
    const started = Date.now();
    const heavy = ['a', 'a', 'b', 'b'].map((tenant) =>
      engine.run(HEAVY, [], { budgetMs: budget, tenant }).then(
        (): Outcome => ({ tenant, code: 'ok', ms: Date.now() - started }),
        (e: AppError): Outcome => ({ tenant, code: e.code, ms: Date.now() - started }),
      ),
    );
    await new Promise((r) => setTimeout(r, 200));
    const t0 = Date.now();
    const ir = parseContactFilter({ filter: { countries: ['us'] } }).ir;
    const res = await engine.query('contact', ir, {
      tenant: 'c',
      countBudgetMs: 1000,
      page: { columns: ['id'], afterSortKey: null, limit: 10, budgetMs: 1000 },
    });
    const third = Date.now() - t0;
    expect(res.count).toBeGreaterThan(0);
    expect(res.rows).toHaveLength(10);
    expect(third).toBeLessThan(1200);
    const outcomes = await Promise.all(heavy);
    expect(outcomes.map((o) => o.code)).toEqual(['query.timeout', 'query.timeout', 'query.timeout', 'query.timeout']);
    // Every heavy count answered within its budget plus a little scheduling, not when DuckDB stopped.
    for (const o of outcomes) expect(o.ms).toBeLessThan(budget + 1000);
    // And DuckDB did stop them: close() waits for in-flight statements, and one whose interrupt was lost (it came
    // before the statement executed, budget-interrupt.test.ts) ran for minutes. Generous for a loaded CI machine.
    const t1 = Date.now();
    await engine.close();
    expect(Date.now() - t1).toBeLessThan(15_000);
  }, 30_000);
});
