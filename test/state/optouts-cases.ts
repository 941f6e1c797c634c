import { AppError } from '../../src/domain/errors/index.js';
import { OPT_OUT_TYPES, type OptOutEntry, type OptOutType, sha256Of } from '../../src/domain/optouts.js';
import { OPT_OUT_CHUNK, type StateStore } from '../../src/state/port.js';

/**
 * The opt-out part of the StateStore contract (runStateStoreSuite calls it inside its describe, on every adapter,
 * with identical expectations). Expected values come from plain JS over the entries written: the listing order is
 * the byte order of the UTF-8 key `type:value`, computed here with Buffer.compare.
 */
const T0 = new Date('2026-03-10T12:00:00.000Z');
const T1 = new Date('2026-03-11T08:30:00.000Z');
const ADD = { action: 'add' as const, actor: 'cli:test' };
const IMPORT = { action: 'import' as const, actor: 'cli:test' };
const REMOVE = { action: 'remove' as const, actor: 'api:operator' };

const e = (type: OptOutType, value: string): OptOutEntry => ({ type, value });
const keyOf = (x: OptOutEntry) => `${x.type}:${x.value}`;
const byteOrder = (a: OptOutEntry, b: OptOutEntry) => Buffer.compare(Buffer.from(keyOf(a)), Buffer.from(keyOf(b)));
const plain = (xs: readonly OptOutEntry[]) => xs.map((x) => ({ type: x.type, value: x.value }));

async function rejection(call: Promise<unknown>): Promise<AppError> {
  try {
    await call;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error('expected an AppError, nothing was thrown');
}

/** Every page of a listing, walked with its cursor. */
async function walk(s: StateStore, type: OptOutType | undefined, limit: number): Promise<OptOutEntry[]> {
  const out: OptOutEntry[] = [];
  let after: string | null = null;
  for (let pages = 0; pages < 10_000; pages++) {
    const page = await s.listOptOuts({ ...(type ? { type } : {}), after, limit });
    expect(page.entries.length).toBeLessThanOrEqual(limit);
    out.push(...plain(page.entries));
    if (page.next === null) return out;
    expect(page.entries.length).toBe(limit);
    after = page.next;
  }
  throw new Error('the listing never ended');
}

/** A mixed list: every type, values with non-ASCII characters whose byte order differs from UTF-16 order. */
const MIXED: readonly OptOutEntry[] = [
  e('email', 'jane@acme.com'),
  e('email', 'a.b@x.io'),
  e('phone', '+14155550100'),
  e('phone', '+447700900123'),
  e('url', 'jane-doe'),
  e('url', 'zoë'),
  e('url', '日本'),
  e('url', '😀smile'),
  e('url', '\uff21wide'),
  e('id', 'per_0001'),
  e('id', 'per_ZZ'),
  e('sha256', sha256Of('hidden@acme.com')),
  e('sha256', sha256Of('+14155550199')),
];

export function optOutCases(storeOf: () => StateStore, open: () => Promise<StateStore>): void {
  describe('opt-outs', () => {
    it('starts empty at version 0', async () => {
      const s = storeOf();
      expect(await s.allOptOuts()).toEqual([]);
      expect(await s.optOutVersion()).toBe(0);
      expect(await s.listOptOuts({ limit: 10 })).toEqual({ entries: [], next: null, total: 0 });
      expect(await s.listOptOutAudit(10)).toEqual([]);
    });

    it('adds, counts repeats as already, lists in byte order with createdAt, and bumps the version only on change', async () => {
      const s = storeOf();
      const first = await s.addOptOuts([...MIXED, MIXED[0]!], ADD, T0);
      expect(first).toEqual({ added: MIXED.length, already: 1 });
      const v1 = await s.optOutVersion();
      expect(v1).toBeGreaterThan(0);
      const sorted = [...MIXED].sort(byteOrder);
      expect(plain(await s.allOptOuts()).sort(byteOrder)).toEqual(sorted);
      const page = await s.listOptOuts({ limit: 100 });
      expect(plain(page.entries)).toEqual(sorted);
      expect(page).toMatchObject({ next: null, total: MIXED.length });
      expect(page.entries.every((x) => x.createdAt === T0.toISOString())).toBe(true);

      // Idempotent: a re-add changes nothing, not even createdAt or the version.
      expect(await s.addOptOuts(MIXED.slice(0, 3), ADD, T1)).toEqual({ added: 0, already: 3 });
      expect(await s.optOutVersion()).toBe(v1);
      expect((await s.listOptOuts({ limit: 100 })).entries.every((x) => x.createdAt === T0.toISOString())).toBe(true);

      // A partly new batch bumps it.
      expect(await s.addOptOuts([MIXED[0]!, e('email', 'new@acme.com')], ADD, T1)).toEqual({ added: 1, already: 1 });
      expect(await s.optOutVersion()).toBeGreaterThan(v1);
      const added = (await s.listOptOuts({ type: 'email', limit: 10 })).entries.find((x) => x.value === 'new@acme.com');
      expect(added?.createdAt).toBe(T1.toISOString());
    });

    it('removes, counts what was not listed as missing, and bumps the version only on change', async () => {
      const s = storeOf();
      await s.addOptOuts(MIXED, ADD, T0);
      const v1 = await s.optOutVersion();
      const gone = [MIXED[0]!, MIXED[4]!, MIXED[11]!];
      expect(await s.removeOptOuts([...gone, e('email', 'never@x.com'), MIXED[0]!], REMOVE, T1)).toEqual({
        removed: 3,
        missing: 2,
      });
      const v2 = await s.optOutVersion();
      expect(v2).toBeGreaterThan(v1);
      const left = MIXED.filter((x) => !gone.includes(x)).sort(byteOrder);
      expect(plain(await s.allOptOuts()).sort(byteOrder)).toEqual(left);
      expect(await s.removeOptOuts(gone, REMOVE, T1)).toEqual({ removed: 0, missing: 3 });
      expect(await s.optOutVersion()).toBe(v2);
      // Added again after removal: a new createdAt.
      await s.addOptOuts([MIXED[0]!], ADD, T1);
      const back = (await s.listOptOuts({ type: MIXED[0]!.type, limit: 10 })).entries.find(
        (x) => x.value === MIXED[0]!.value,
      );
      expect(back?.createdAt).toBe(T1.toISOString());
    });

    it('pages with a cursor, with and without a type, in the same order as the whole listing', async () => {
      const s = storeOf();
      await s.addOptOuts(MIXED, ADD, T0);
      const sorted = [...MIXED].sort(byteOrder);
      for (const limit of [1, 2, 5, 13, 14]) expect(await walk(s, undefined, limit)).toEqual(sorted);
      for (const type of OPT_OUT_TYPES) {
        const ofType = sorted.filter((x) => x.type === type);
        expect(await walk(s, type, 2)).toEqual(ofType);
        expect((await s.listOptOuts({ type, limit: 1 })).total).toBe(ofType.length);
      }
      // A cursor of another type under a type filter: before the type's range starts it, after it ends it.
      const emails = sorted.filter((x) => x.type === 'email');
      expect(plain((await s.listOptOuts({ type: 'email', after: 'id:per_0001', limit: 10 })).entries)).toEqual([]);
      expect(plain((await s.listOptOuts({ type: 'email', after: 'email:a', limit: 10 })).entries)).toEqual(emails);
      expect(plain((await s.listOptOuts({ type: 'id', after: 'email:zzz', limit: 10 })).entries)).toEqual(
        sorted.filter((x) => x.type === 'id'),
      );
      // A cursor naming an entry that was removed meanwhile still pages on from where it was.
      const page1 = await s.listOptOuts({ limit: 3 });
      await s.removeOptOuts([sorted[2]!], REMOVE, T1);
      expect(plain((await s.listOptOuts({ after: page1.next, limit: 2 })).entries)).toEqual(sorted.slice(3, 5));
    });

    it.each(['', 'nope', 'bogus:value', 'email:'])(
      'refuses the malformed cursor %j with request.invalid',
      async (after) => {
        const err = await rejection(storeOf().listOptOuts({ after, limit: 5 }));
        expect([err.code, err.field]).toEqual(['request.invalid', 'cursor']);
      },
    );

    it('audits each change per identifier type with its count, newest first, never an identifier', async () => {
      const s = storeOf();
      await s.addOptOuts(MIXED, ADD, T0);
      await s.addOptOuts(MIXED, ADD, T0); // a no-op: no record
      await s.removeOptOuts([MIXED[0]!, MIXED[1]!, MIXED[11]!, e('phone', '+10000000000')], REMOVE, T1);
      const audit = await s.listOptOutAudit(100);
      const count = (t: OptOutType) => MIXED.filter((x) => x.type === t).length;
      expect(audit.slice(0, 2)).toEqual([
        { at: T1.toISOString(), action: 'remove', actor: 'api:operator', type: 'sha256', count: 1 },
        { at: T1.toISOString(), action: 'remove', actor: 'api:operator', type: 'email', count: 2 },
      ]);
      // The add: one record per type present, types in the order their first entry came.
      const firstSeen = [...new Set(MIXED.map((x) => x.type))];
      expect(audit.slice(2)).toEqual(
        firstSeen
          .map((type) => ({ at: T0.toISOString(), action: 'add', actor: 'cli:test', type, count: count(type) }))
          .reverse(),
      );
      expect(await s.listOptOutAudit(1)).toEqual(audit.slice(0, 1));
      const text = JSON.stringify(audit);
      for (const x of MIXED) expect(text).not.toContain(x.value);
    });

    it('is shared by every process of the deployment, and concurrent adds of the same entries count each once', async () => {
      const a = storeOf();
      const b = await open();
      const entries = MIXED.slice(0, 8);
      const [ra, rb] = await Promise.all([a.addOptOuts(entries, ADD, T0), b.addOptOuts(entries, ADD, T0)]);
      expect(ra.added + rb.added).toBe(entries.length);
      expect(ra.already + rb.already).toBe(entries.length);
      expect(await b.optOutVersion()).toBe(await a.optOutVersion());
      expect(plain(await b.allOptOuts()).sort(byteOrder)).toEqual([...entries].sort(byteOrder));
      const audit = await a.listOptOutAudit(100);
      expect(audit.reduce((n, r) => n + r.count, 0)).toBe(entries.length);
    });

    it('imports 100,000 entries in chunks with progress, one audit record per type, and reads them all back', async () => {
      const s = storeOf();
      const n = 100_000;
      const entries: OptOutEntry[] = [];
      for (let i = 0; i < n; i++) {
        entries.push(i % 2 === 0 ? e('email', `user${i}@example.com`) : e('sha256', sha256Of(`+1415${1_000_000 + i}`)));
      }
      const progress: number[] = [];
      const before = await s.optOutVersion();
      expect(await s.addOptOuts(entries, IMPORT, T0, (done, total) => progress.push(done / total))).toEqual({
        added: n,
        already: 0,
      });
      expect(progress.length).toBe(Math.ceil(n / OPT_OUT_CHUNK));
      expect(progress[progress.length - 1]).toBe(1);
      expect(await s.optOutVersion()).toBeGreaterThan(before);
      const all = await s.allOptOuts();
      expect(all.length).toBe(n);
      const want = new Set(entries.map(keyOf));
      expect(all.every((x) => want.has(keyOf(x)))).toBe(true);
      expect((await s.listOptOuts({ type: 'email', limit: 1 })).total).toBe(n / 2);
      expect(await s.listOptOutAudit(10)).toEqual([
        { at: T0.toISOString(), action: 'import', actor: 'cli:test', type: 'sha256', count: n / 2 },
        { at: T0.toISOString(), action: 'import', actor: 'cli:test', type: 'email', count: n / 2 },
      ]);
      // Re-importing is a no-op; removing half removes exactly that half.
      const v = await s.optOutVersion();
      expect(await s.addOptOuts(entries, IMPORT, T1)).toEqual({ added: 0, already: n });
      expect(await s.optOutVersion()).toBe(v);
      const half = entries.filter((x) => x.type === 'email');
      expect(await s.removeOptOuts(half, REMOVE, T1)).toEqual({ removed: n / 2, missing: 0 });
      expect((await s.allOptOuts()).every((x) => x.type === 'sha256')).toBe(true);
    }, 120_000);
  });
}
