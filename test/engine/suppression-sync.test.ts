import { join } from 'node:path';
import { type DuckDBEngine, openDuckDBEngine } from '../../src/engine/duckdb/duckdb-engine.js';
import type { StateStore } from '../../src/state/port.js';
import { openSqliteStore } from '../../src/state/sqlite/sqlite-store.js';
import { type SuppressionSync, syncSuppression } from '../../src/suppression-sync.js';
import { type ConformanceRelease, conformanceRelease } from './conformance/release.js';

/**
 * The poller that keeps an engine's suppression in step with the state store's opt-out list (src/suppression-sync.ts):
 * an opt-out added to the store leaves every read of a running engine within a second; removing it brings the
 * person back. Real SQLite store, real engine.
 */

let rel: ConformanceRelease;
let engine: DuckDBEngine;
let state: StateStore;
let sync: SuppressionSync;
const applied: Array<{ version: number; contacts: number }> = [];

beforeAll(async () => {
  rel = await conformanceRelease(2000, 200, 8);
  engine = await openDuckDBEngine({ dataDir: rel.dataDir, poolSize: 2, threads: 1, memoryLimit: '512MB' });
  state = openSqliteStore({ file: join(rel.dataDir, 'state.sqlite'), keyPepper: 'test-pepper', dataDir: rel.dataDir });
  sync = syncSuppression({ state, engine, everyMs: 100, onApplied: (a) => applied.push(a) });
  await sync.ready;
}, 120_000);
afterAll(async () => {
  await sync.stop();
  await state.close();
  await engine.close();
  rel.remove();
});

const count = async (): Promise<number | null> =>
  (await engine.query('contact', { and: [] }, { countBudgetMs: 10_000 })).count;

/** Polls `fn` until it answers `want`; answers the time it took (ms), or fails after 5 s. */
async function until<T>(fn: () => Promise<T>, want: T): Promise<number> {
  const started = Date.now();
  while ((await fn()) !== want) {
    if (Date.now() - started > 5000) throw new Error(`still not ${String(want)} after 5 s`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - started;
}

it('an opt-out added to the store leaves the reads within a second, and its removal brings the person back', async () => {
  const [a, b] = [rel.contacts[100]!, rel.contacts.find((x, i) => i > 500 && x.work_email)!];
  const audit = { actor: 'cli:test' };
  await state.addOptOuts(
    [
      { type: 'id', value: a.id },
      { type: 'email', value: b.work_email },
    ],
    { ...audit, action: 'add' },
    new Date(),
  );
  expect(await until(count, rel.contacts.length - 2)).toBeLessThan(1000);
  expect(applied.at(-1)).toEqual({ version: await state.optOutVersion(), contacts: 2 });
  await state.removeOptOuts([{ type: 'id', value: a.id }], { ...audit, action: 'remove' }, new Date());
  expect(await until(count, rel.contacts.length - 1)).toBeLessThan(1000);
  await state.removeOptOuts([{ type: 'email', value: b.work_email }], { ...audit, action: 'remove' }, new Date());
  expect(await until(count, rel.contacts.length)).toBeLessThan(1000);
});
