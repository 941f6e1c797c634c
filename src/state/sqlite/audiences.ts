import type { Database, Statement } from 'better-sqlite3';
import {
  type Audience,
  type AudiencePatch,
  type AudiencePoint,
  audiencesLimitError,
  sortHistory,
  sortNewestFirst,
} from '../../domain/audiences/store.js';
import { newId } from '../../domain/ids.js';
import type { SqliteAccounts } from './accounts.js';

interface Row {
  id: string;
  account_id: string;
  name: string;
  description: string | null;
  filter: string;
  filter_version: number;
  created_at: string;
  updated_at: string;
}

interface PointRow {
  audience_id: string;
  release: string;
  count: number;
  counted_at: string;
}

/** Saved audiences and their per-release counts; reads always name the owning account. */
export class SqliteAudiences {
  private readonly held: Statement<[string], { n: number }>;
  private readonly insert: Statement<[Row]>;
  private readonly one: Statement<[string, string], Row>;
  private readonly all: Statement<[string], Row>;
  private readonly points: Statement<[string], PointRow>;
  private readonly accountPoints: Statement<[string], PointRow>;
  private readonly update: Statement<[Row]>;
  private readonly remove: Statement<[string, string]>;
  private readonly clearPoints: Statement<[string]>;
  private readonly upsertPoint: Statement<[PointRow]>;

  constructor(
    private readonly db: Database,
    private readonly accounts: SqliteAccounts,
  ) {
    this.held = db.prepare('SELECT count(*) AS n FROM audiences WHERE account_id = ?');
    this.insert = db.prepare(
      'INSERT INTO audiences (id, account_id, name, description, filter, filter_version, created_at, updated_at) ' +
        'VALUES (@id, @account_id, @name, @description, @filter, @filter_version, @created_at, @updated_at)',
    );
    this.one = db.prepare('SELECT * FROM audiences WHERE account_id = ? AND id = ?');
    this.all = db.prepare('SELECT * FROM audiences WHERE account_id = ?');
    this.points = db.prepare('SELECT * FROM audience_counts WHERE audience_id = ?');
    this.accountPoints = db.prepare(
      'SELECT c.* FROM audience_counts c JOIN audiences a ON a.id = c.audience_id WHERE a.account_id = ?',
    );
    this.update = db.prepare(
      'UPDATE audiences SET name = @name, description = @description, filter = @filter, ' +
        'filter_version = @filter_version, updated_at = @updated_at WHERE account_id = @account_id AND id = @id',
    );
    this.remove = db.prepare('DELETE FROM audiences WHERE account_id = ? AND id = ?');
    this.clearPoints = db.prepare('DELETE FROM audience_counts WHERE audience_id = ?');
    this.upsertPoint = db.prepare(
      'INSERT INTO audience_counts (audience_id, release, count, counted_at) VALUES (@audience_id, @release, ' +
        '@count, @counted_at) ON CONFLICT (audience_id, release) DO UPDATE SET count = excluded.count, ' +
        'counted_at = excluded.counted_at',
    );
  }

  create(
    accountId: string,
    input: { name: string; description: string | null; filter: Record<string, unknown>; now: Date },
    max: number,
  ): Audience {
    this.accounts.require(accountId);
    const at = input.now.toISOString();
    const row: Row = {
      id: newId('audience'),
      account_id: accountId,
      name: input.name,
      description: input.description,
      filter: JSON.stringify(input.filter),
      filter_version: 1,
      created_at: at,
      updated_at: at,
    };
    this.db
      .transaction(() => {
        const held = this.held.get(accountId)!.n;
        if (held >= max) throw audiencesLimitError(held, max);
        this.insert.run(row);
      })
      .immediate();
    return toAudience(row, []);
  }

  get(accountId: string, id: string): Audience | undefined {
    const r = this.one.get(accountId, id);
    return r ? toAudience(r, this.points.all(r.id)) : undefined;
  }

  list(accountId: string): Audience[] {
    const byAudience = new Map<string, PointRow[]>();
    for (const p of this.accountPoints.all(accountId)) {
      const list = byAudience.get(p.audience_id) ?? [];
      list.push(p);
      byAudience.set(p.audience_id, list);
    }
    return sortNewestFirst(this.all.all(accountId).map((r) => toAudience(r, byAudience.get(r.id) ?? [])));
  }

  patch(accountId: string, id: string, patch: AudiencePatch, now: Date): Audience | undefined {
    return this.db
      .transaction(() => {
        const r = this.one.get(accountId, id);
        if (!r) return undefined;
        const next: Row = {
          ...r,
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.description !== undefined ? { description: patch.description } : {}),
          ...(patch.filter !== undefined
            ? { filter: JSON.stringify(patch.filter), filter_version: r.filter_version + 1 }
            : {}),
          updated_at: now.toISOString(),
        };
        this.update.run(next);
        if (patch.filter !== undefined) this.clearPoints.run(id);
        return toAudience(next, this.points.all(id));
      })
      .immediate();
  }

  delete(accountId: string, id: string): boolean {
    return this.db
      .transaction(() => {
        const gone = this.remove.run(accountId, id).changes > 0;
        if (gone) this.clearPoints.run(id);
        return gone;
      })
      .immediate();
  }

  record(accountId: string, id: string, filterVersion: number, point: AudiencePoint): Audience | undefined {
    return this.db
      .transaction(() => {
        const r = this.one.get(accountId, id);
        if (!r) return undefined;
        if (r.filter_version === filterVersion)
          this.upsertPoint.run({
            audience_id: id,
            release: point.release,
            count: point.count,
            counted_at: point.countedAt,
          });
        return toAudience(r, this.points.all(id));
      })
      .immediate();
  }
}

function toAudience(r: Row, points: PointRow[]): Audience {
  return {
    id: r.id,
    accountId: r.account_id,
    name: r.name,
    description: r.description,
    filter: JSON.parse(r.filter) as Record<string, unknown>,
    filterVersion: r.filter_version,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    history: sortHistory(points.map((p) => ({ release: p.release, count: p.count, countedAt: p.counted_at }))),
  };
}
