import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { isAppError } from '../../src/domain/errors/index.js';
import { GroupCommit } from '../../src/state/sqlite/group-commit.js';
import { openSqliteStore } from '../../src/state/sqlite/index.js';

let dir: string;
let db: Database.Database;
/** A second connection to the same file, as another process would have. */
let other: Database.Database;
let group: GroupCommit;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cds-group-commit-'));
  const file = join(dir, 'g.sqlite');
  db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY)');
  other = new Database(file);
  other.pragma('busy_timeout = 0');
  group = new GroupCommit(db);
});
afterAll(() => {
  db.close();
  other.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => db.exec('DELETE FROM t'));

const insert = (n: number) => db.transaction(() => db.prepare('INSERT INTO t (n) VALUES (?)').run(n).changes);
const seen = (conn: Database.Database): number[] =>
  conn
    .prepare<[], { n: number }>('SELECT n FROM t ORDER BY n')
    .all()
    .map((r) => r.n);

describe('GroupCommit', () => {
  it('runs the calls of one turn in one transaction, in order: another connection sees none before the commit', async () => {
    const seenByOther: number[][] = [];
    const calls = [1, 2, 3].map((n) =>
      group.run(() => {
        // The earlier jobs of the group have written, uncommitted: this connection sees them, another does not.
        seenByOther.push(seen(other));
        expect(db.inTransaction).toBe(true);
        return insert(n)();
      }),
    );
    // Nothing runs before the turn ends.
    expect(seen(other)).toEqual([]);
    await expect(Promise.all(calls)).resolves.toEqual([1, 1, 1]);
    expect(seenByOther).toEqual([[], [], []]);
    expect(seen(other)).toEqual([1, 2, 3]);
  });

  it('rolls back and rejects only the job that throws; the rest of its group commits', async () => {
    const results = await Promise.allSettled([
      group.run(() => insert(1)()),
      // A transaction function (as every store call is) that writes, then throws: its savepoint is rolled back, 2 is
      // not kept.
      group.run(
        db.transaction(() => {
          insert(2)();
          return insert(1)();
        }),
      ),
      group.run(() => insert(3)()),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    expect(seen(other)).toEqual([1, 3]);
  });

  it('rejects every job of a group that cannot commit (the write lock held elsewhere), and keeps none of them', async () => {
    const locked = new Database(join(dir, 'g.sqlite'));
    locked.pragma('busy_timeout = 0');
    locked.exec('BEGIN IMMEDIATE');
    db.pragma('busy_timeout = 0');
    try {
      const results = await Promise.allSettled([group.run(() => insert(1)()), group.run(() => insert(2)())]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/locked|busy/i);
    } finally {
      locked.exec('ROLLBACK');
      locked.close();
    }
    expect(seen(other)).toEqual([]);
    // The next group commits as usual.
    await expect(group.run(() => insert(4)())).resolves.toBe(1);
    expect(seen(other)).toEqual([4]);
  });

  it('flush runs what is queued at once (a store closing), and a closed database rejects', async () => {
    const queued = group.run(() => insert(5)());
    group.flush();
    expect(seen(other)).toEqual([5]);
    await expect(queued).resolves.toBe(1);
    const scratch = new Database(':memory:');
    const closed = new GroupCommit(scratch);
    scratch.close();
    await expect(closed.run(() => 1)).rejects.toThrow(/closed/);
  });
});

describe('the SQLite store groups credit calls', () => {
  it('answers concurrent holds, settlements and refusals exactly as one at a time', async () => {
    const store = openSqliteStore({ file: join(dir, 'store.sqlite'), keyPepper: 'p' });
    try {
      const now = new Date('2026-11-10T12:00:00Z');
      const account = await store.createAccount({ name: 'a', plan: 'free', billingDay: null, now });
      const pool = async () => {
        const snap = await store.snapshot(account.id, now);
        if (snap.contact.kind !== 'pool') throw new Error('the free plan has a pool');
        return snap.contact.pool;
      };
      const left = (await pool()).cap;
      // Concurrent holds of 10 (one group), one more than the credits allow in exact mode, one refused alone.
      const wanted = Math.floor(left / 10);
      const reserve = (mode: 'exact' | 'up_to') =>
        store.reserve({ accountId: account.id, kind: 'contact', category: 'search', amount: 10, mode, now });
      const outcomes = await Promise.allSettled([
        ...Array.from({ length: wanted }, () => reserve('up_to')),
        reserve('exact'),
      ]);
      const holds = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      const refused = outcomes.filter((o) => o.status === 'rejected') as PromiseRejectedResult[];
      expect(holds).toHaveLength(wanted);
      expect(holds.every((h) => h.amount === 10)).toBe(true);
      expect(refused).toHaveLength(1);
      expect(isAppError(refused[0]!.reason) && refused[0]!.reason.code).toBe('contact_credits.exhausted');
      // Settled together: 7 of each 10 charged, the rest returned.
      await Promise.all(holds.map((h) => store.commit(h.id, 7, now)));
      expect(await pool()).toMatchObject({ used: 7 * wanted, held: 0 });
    } finally {
      await store.close();
    }
  });
});
