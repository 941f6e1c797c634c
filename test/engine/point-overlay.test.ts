import { linkSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import { seedRelease } from '../../loaders/seed.js';
import { CONTACT_CARD_COLUMNS } from '../../src/domain/catalog/index.js';
import { decodeCards } from '../../src/engine/duckdb/point-store/layout.js';
import { PointStore } from '../../src/engine/duckdb/point-store/point-store.js';
import {
  cardsSourceSql,
  FULL_CARD_COLUMNS,
  keysSourceSql,
  POINT_KEY_COLUMNS,
  pointStoreBaseFile,
  pointStoreFile,
} from '../../src/engine/duckdb/point-store/schema.js';
import { pruneReleases, readCurrent, releaseFile } from '../../src/engine/duckdb/release-store.js';
import { describeReleases } from '../../src/engine/duckdb/releases.js';
import { loadCutDelta } from '../helpers/cut-delta.js';

/**
 * A delta's point store is an overlay over its full load's store, shared by a hard link (point-store/schema.ts): after
 * each of several deltas (the later ones over overlays) every card and every key lookup answers exactly what the
 * release's own rows hold, and the full load's store is never copied.
 */

const AS_OF = new Date('2026-11-01T00:00:00Z');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cds-overlay-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Expected {
  positions: number;
  contacts: number;
  cards: Map<number, string>;
  fullCards: Map<number, string> | null;
  keys: Map<string, Map<string, number[]>>;
}

/** What the serving release's rows say its point store must answer: cards by sort_key, sort_keys by key value. */
async function expected(dataDir: string, fullCards: boolean): Promise<Expected & { id: string }> {
  const id = (await readCurrent(dataDir))!.id;
  const inst = await DuckDBInstance.create(releaseFile(dataDir, id), { access_mode: 'READ_ONLY' });
  const conn = await inst.connect();
  try {
    const rows = async (sql: string) => (await conn.runAndReadAll(sql)).getRows();
    const cardsOf = async (layout: readonly string[]) =>
      new Map((await rows(cardsSourceSql(layout))).map(([k, card]) => [Number(k), String(card)]));
    const keys = new Map<string, Map<string, number[]>>();
    for (const column of POINT_KEY_COLUMNS) {
      const byValue = new Map<string, number[]>();
      for (const [value, k] of await rows(keysSourceSql(column)))
        byValue.set(String(value), [...(byValue.get(String(value)) ?? []), Number(k)]);
      keys.set(column, byValue);
    }
    const [[positions, contacts]] = (await rows('SELECT max(sort_key), count(*) FROM contacts')) as [[bigint, bigint]];
    return {
      id,
      positions: Number(positions),
      contacts: Number(contacts),
      cards: await cardsOf(CONTACT_CARD_COLUMNS),
      fullCards: fullCards ? await cardsOf(FULL_CARD_COLUMNS) : null,
      keys,
    };
  } finally {
    conn.closeSync();
    inst.closeSync();
  }
}

/** Opens the serving release's store and compares every card and every key value's lookup with the rows. */
async function storeMatchesRows(dataDir: string, fullCards: boolean): Promise<void> {
  const want = await expected(dataDir, fullCards);
  const file = pointStoreFile(releaseFile(dataDir, want.id));
  const opened = PointStore.open(file, { id: want.id, contacts: want.contacts, positions: want.positions });
  expect(opened.reason).toBeUndefined();
  const store = opened.store!;
  try {
    // Every position up to the last and one past it: gone positions answer no card.
    const all = Array.from({ length: want.positions + 1 }, (_, i) => i + 1);
    const got = new Map(store.cards(all).map((r) => [r.sort_key, r.card]));
    expect(got.size).toBe(want.contacts);
    expect(got).toEqual(want.cards);
    if (want.fullCards)
      expect(new Map(store.cards(all, 'full').map((r) => [r.sort_key, r.card]))).toEqual(want.fullCards);
    // A page's cards read in one statement as bytes and written as JSON objects (an index page's read): every card
    // once, in sort_key order, the overlay's own where it has one, gone positions left out.
    const kinds: ['card' | 'full', readonly string[], Map<number, string>][] = [
      ['card', CONTACT_CARD_COLUMNS, want.cards],
    ];
    if (want.fullCards) kinds.push(['full', FULL_CARD_COLUMNS, want.fullCards]);
    for (const [kind, layout, cards] of kinds) {
      const page = store.cardsJson(all, layout, kind);
      const keys = [...cards.keys()].sort((a, b) => a - b);
      expect(page.sortKeys).toEqual(keys);
      const decoded = decodeCards(
        keys.map((k) => cards.get(k)!),
        layout,
        layout,
      ).map(({ sort_key: _, ...row }) => row);
      expect(JSON.parse(`[${page.bytes.toString('utf8')}]`)).toEqual(decoded);
    }
    for (const [column, byValue] of want.keys) {
      expect(byValue.size).toBeGreaterThan(100);
      const values = [...byValue.keys()];
      // One lookup of every value: each contact once, no contact whose value changed or who is gone.
      const found = store.read([{ field: column, op: 'in', value: values }]).map((r) => r.sort_key);
      expect(found.sort((a, b) => a - b)).toEqual([...byValue.values()].flat().sort((a, b) => a - b));
      // Value by value for a sample, so a contact found under another value would show.
      for (const v of values.filter((_, i) => i % 97 === 0)) {
        const one = store.read([{ field: column, op: 'eq', value: v }]).map((r) => r.sort_key);
        expect({ column, v, keys: one.sort((a, b) => a - b) }).toEqual({ column, v, keys: byValue.get(v) });
      }
    }
  } finally {
    store.close();
  }
}

it.each([
  ['cards', false],
  ['full cards', true],
])(
  'deltas over deltas (%s): every card and key lookup is the release rows',
  async (_name, fullCards) => {
    const dataDir = join(dir, fullCards ? 'full' : 'cards');
    const seeded = await seedRelease({
      dataDir,
      contacts: 2500,
      companies: 250,
      seed: 17,
      asOf: AS_OF,
      fullCards,
    });
    const fullStore = pointStoreFile(releaseFile(dataDir, seeded.load.releaseId));
    // The full load itself is pruned by the third delta (three releases are kept): its store lives on as their base.
    const full = statSync(fullStore);
    for (const [i, share] of [0.05, 0.2, 0.5].entries()) {
      const report = await loadCutDelta(dataDir, seeded.generate, join(dataDir, `cut-${i}`), share, { fullCards });
      expect(report.delta?.patched).toBe(true);
      const store = pointStoreFile(releaseFile(dataDir, report.releaseId));
      // The full load's store is shared, not copied; the overlay holds the changed contacts only.
      expect(statSync(pointStoreBaseFile(store)).ino).toBe(full.ino);
      expect(statSync(store).size).toBeLessThan(full.size);
      // An overlay names its release under its own key: a build from before overlays finds no release id in it and
      // does not take it for a whole store.
      const meta = new Database(store, { readonly: true });
      try {
        const keys = Object.fromEntries(meta.prepare('SELECT key, value FROM meta').raw().all() as [string, string][]);
        expect(keys).toMatchObject({ overlay_release_id: report.releaseId, base_release_id: seeded.load.releaseId });
        expect(keys.release_id).toBeUndefined();
      } finally {
        meta.close();
      }
      await storeMatchesRows(dataDir, fullCards);
    }
    // The listing counts the shared store once as shared, not in each release's bytes.
    const listed = await describeReleases(dataDir);
    expect(listed.map((r) => [r.kind, r.shared_bytes])).toEqual(listed.map(() => ['delta', full.size]));
    // Pruning the full load and the older deltas leaves the serving delta's store whole: its base is its own link.
    await pruneReleases(dataDir, 1);
    expect((await describeReleases(dataDir)).map((r) => [r.kind, r.shared_bytes])).toEqual([['delta', 0]]);
    await storeMatchesRows(dataDir, fullCards);
  },
  240_000,
);

it('an overlay whose base is missing or another release is not used, with the reason', async () => {
  const dataDir = join(dir, 'cards');
  const current = (await readCurrent(dataDir))!;
  const store = pointStoreFile(releaseFile(dataDir, current.id));
  const release = { id: current.id, contacts: current.contacts, positions: current.contacts + 1000 };
  const base = pointStoreBaseFile(store);
  const other = pointStoreFile(releaseFile(join(dir, 'full'), (await readCurrent(join(dir, 'full')))!.id));
  const aside = `${base}.aside`;
  renameSync(base, aside);
  try {
    const missing = PointStore.open(store, release);
    expect(missing.store).toBeNull();
    expect(missing.reason).toMatch(/point store not used: unable to open database/);
    // The release listing says so too.
    expect((await describeReleases(dataDir)).find((r) => r.serving)?.point_store).toBe(false);
    linkSync(other, base);
    const foreign = PointStore.open(store, release);
    expect(foreign.store).toBeNull();
    expect(foreign.reason).toMatch(/its base (belongs to release|holds cards of another layout)/);
  } finally {
    rmSync(base, { force: true });
    renameSync(aside, base);
  }
  expect((await describeReleases(dataDir)).find((r) => r.serving)?.point_store).toBe(true);
});

it('a delta over an overlay whose base is gone is rebuilt, with a full point store of its own', async () => {
  const dataDir = join(dir, 'cards');
  const current = (await readCurrent(dataDir))!;
  const base = pointStoreBaseFile(pointStoreFile(releaseFile(dataDir, current.id)));
  rmSync(base);
  const seeded = join(dataDir, 'dumps', '17-2500');
  const dumps = { peopleFile: join(seeded, 'people.jsonl'), companiesFile: join(seeded, 'companies.jsonl') };
  const report = await loadCutDelta(dataDir, dumps, join(dataDir, 'cut-after-base-gone'), 0.1);
  expect(report.delta?.patched).toBe(false);
  const store = pointStoreFile(releaseFile(dataDir, report.releaseId));
  expect(() => statSync(pointStoreBaseFile(store))).toThrow();
  await storeMatchesRows(dataDir, false);
}, 120_000);
