import { join } from 'node:path';
import { type DuckDBEngine, openDuckDBEngine } from '../../src/engine/duckdb/duckdb-engine.js';
import type { StateStore } from '../../src/state/port.js';
import { openSqliteStore } from '../../src/state/sqlite/sqlite-store.js';
import { type SuppressionSync, syncSuppression } from '../../src/suppression-sync.js';
import { type ConformanceRelease, conformanceRelease } from './conformance/release.js';

/**
 * The poller that keeps an engine's suppression in step with the state store's opt-out list (src/suppression-sync.ts):
 * an opt-out added to the store leaves every read of a running engine at the next poll (the default polls every
 * 500 ms, so within a second); removing it brings the person back. Real SQLite store, real engine. The promptness is
 * asserted in polls, not in milliseconds, so a loaded test machine does not make it fail: the change must be applied
 * by the first poll that starts after it (at most two reads of the list's version, counting the one that may have
 * been in flight when the change was written).
 */

let rel: ConformanceRelease;
let engine: DuckDBEngine;
let state: StateStore;
let sync: SuppressionSync;
const applied: Array<{ version: number; contacts: number }> = [];
let versionReads = 0;
/** For each list applied, how many version reads the poller had made by then. */
const appliedAtRead: number[] = [];

beforeAll(async () => {
  rel = await conformanceRelease(2000, 200, 8);
  engine = await openDuckDBEngine({ dataDir: rel.dataDir, poolSize: 2, threads: 1, memoryLimit: '512MB' });
  state = openSqliteStore({ file: join(rel.dataDir, 'state.sqlite'), keyPepper: 'test-pepper', dataDir: rel.dataDir });
  // The poller reads the real store; the wrapper only counts its version reads.
  const polled = {
    optOutVersion: async () => {
      versionReads += 1;
      return state.optOutVersion();
    },
    allOptOuts: () => state.allOptOuts(),
  };
  sync = syncSuppression({
    state: polled,
    engine,
    everyMs: 100,
    onApplied: (a) => {
      applied.push(a);
      appliedAtRead.push(versionReads);
    },
  });
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

/**
 * Polls `fn` until it answers `want` (fails after 10 s); answers how many version reads the poller had made, counted
 * from the moment the change was written (`readsBefore`), when it applied the list the reads now reflect.
 */
async function until<T>(fn: () => Promise<T>, want: T, readsBefore: number): Promise<number> {
  const started = Date.now();
  while ((await fn()) !== want) {
    if (Date.now() - started > 10_000) throw new Error(`still not ${String(want)} after 10 s`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return appliedAtRead.at(-1)! - readsBefore;
}

it('an opt-out added to the store leaves the reads at the next poll, and its removal brings the person back', async () => {
  const [a, b] = [rel.contacts[100]!, rel.contacts.find((x, i) => i > 500 && x.work_email)!];
  const audit = { actor: 'cli:test' };
  let reads = versionReads;
  await state.addOptOuts(
    [
      { type: 'id', value: a.id },
      { type: 'email', value: b.work_email },
    ],
    { ...audit, action: 'add' },
    new Date(),
  );
  expect(await until(count, rel.contacts.length - 2, reads)).toBeLessThanOrEqual(2);
  expect(applied.at(-1)).toEqual({ version: await state.optOutVersion(), contacts: 2 });
  reads = versionReads;
  await state.removeOptOuts([{ type: 'id', value: a.id }], { ...audit, action: 'remove' }, new Date());
  expect(await until(count, rel.contacts.length - 1, reads)).toBeLessThanOrEqual(2);
  reads = versionReads;
  await state.removeOptOuts([{ type: 'email', value: b.work_email }], { ...audit, action: 'remove' }, new Date());
  expect(await until(count, rel.contacts.length, reads)).toBeLessThanOrEqual(2);
});
