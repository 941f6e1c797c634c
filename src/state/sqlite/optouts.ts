import type { Database, Statement } from 'better-sqlite3';
import { randomToken } from '../../domain/ids.js';
import { type OptOutEntry, type OptOutType, optOutAfter, parseOptOutKey } from '../../domain/optouts.js';
import {
  OPT_OUT_CHUNK,
  type OptOutAuditInput,
  type OptOutAuditRecord,
  type OptOutListQuery,
  type OptOutPage,
  type OptOutProgress,
} from '../port.js';

interface EntryRow {
  type: OptOutType;
  value: string;
  created_at: string;
}

/**
 * The suppression list in the state file (tables optouts, optout_version, optout_audit; schema.ts). A change runs in
 * chunks of OPT_OUT_CHUNK entries, each one IMMEDIATE transaction holding the chunk's writes, its audit counts and
 * the version bump: a crash mid-import keeps whole chunks, each counted in the audit.
 */
export class SqliteOptOuts {
  private readonly insert: Statement<[string, string, string]>;
  private readonly delete: Statement<[string, string]>;
  private readonly audit: Statement<[string, string, string, string, string, number]>;
  private readonly bump: Statement<[]>;
  private readonly version: Statement<[], { version: number }>;
  private readonly all: Statement<[], OptOutEntry>;
  private readonly pages: {
    first: Statement<[number], EntryRow>;
    after: Statement<[string, string, number], EntryRow>;
    typeFirst: Statement<[string, number], EntryRow>;
    typeAfter: Statement<[string, string, number], EntryRow>;
  };
  private readonly count: Statement<[], { n: number }>;
  private readonly countType: Statement<[string], { n: number }>;
  private readonly auditList: Statement<[number], OptOutAuditRecord>;

  constructor(private readonly db: Database) {
    this.insert = db.prepare('INSERT OR IGNORE INTO optouts (type, value, created_at) VALUES (?, ?, ?)');
    this.delete = db.prepare('DELETE FROM optouts WHERE type = ? AND value = ?');
    this.audit = db.prepare(
      'INSERT INTO optout_audit (change_id, type, at, action, actor, count) VALUES (?, ?, ?, ?, ?, ?) ' +
        'ON CONFLICT (change_id, type) DO UPDATE SET count = count + excluded.count',
    );
    this.bump = db.prepare('UPDATE optout_version SET version = version + 1');
    this.version = db.prepare('SELECT version FROM optout_version');
    // Rows as the entries themselves: no mapping pass over a large list.
    this.all = db.prepare('SELECT type, value FROM optouts ORDER BY type, value');
    const cols = 'SELECT type, value, created_at FROM optouts';
    this.pages = {
      first: db.prepare(`${cols} ORDER BY type, value LIMIT ?`),
      after: db.prepare(`${cols} WHERE (type, value) > (?, ?) ORDER BY type, value LIMIT ?`),
      typeFirst: db.prepare(`${cols} WHERE type = ? ORDER BY value LIMIT ?`),
      typeAfter: db.prepare(`${cols} WHERE type = ? AND value > ? ORDER BY value LIMIT ?`),
    };
    this.count = db.prepare('SELECT count(*) AS n FROM optouts');
    this.countType = db.prepare('SELECT count(*) AS n FROM optouts WHERE type = ?');
    this.auditList = db.prepare('SELECT at, action, actor, type, count FROM optout_audit ORDER BY seq DESC LIMIT ?');
  }

  add(
    entries: readonly OptOutEntry[],
    audit: OptOutAuditInput,
    now: Date,
    onProgress?: OptOutProgress,
  ): { added: number; already: number } {
    const at = now.toISOString();
    const added = this.apply(entries, audit, at, onProgress, (e) => this.insert.run(e.type, e.value, at).changes);
    return { added, already: entries.length - added };
  }

  remove(
    entries: readonly OptOutEntry[],
    audit: OptOutAuditInput,
    now: Date,
    onProgress?: OptOutProgress,
  ): { removed: number; missing: number } {
    const removed = this.apply(
      entries,
      audit,
      now.toISOString(),
      onProgress,
      (e) => this.delete.run(e.type, e.value).changes,
    );
    return { removed, missing: entries.length - removed };
  }

  /** Runs `write` over the entries chunk by chunk; answers how many it changed. */
  private apply(
    entries: readonly OptOutEntry[],
    audit: OptOutAuditInput,
    at: string,
    onProgress: OptOutProgress | undefined,
    write: (e: OptOutEntry) => number,
  ): number {
    const changeId = randomToken(16);
    let changed = 0;
    const chunk = this.db.transaction((part: readonly OptOutEntry[]) => {
      // Types in the order their first change came, as the Redis script records them.
      const byType = new Map<OptOutType, number>();
      for (const e of part) if (write(e) > 0) byType.set(e.type, (byType.get(e.type) ?? 0) + 1);
      let n = 0;
      for (const [type, count] of byType) {
        this.audit.run(changeId, type, at, audit.action, audit.actor, count);
        n += count;
      }
      if (n > 0) this.bump.run();
      return n;
    });
    for (let i = 0; i < entries.length; i += OPT_OUT_CHUNK) {
      changed += chunk.immediate(entries.slice(i, i + OPT_OUT_CHUNK));
      onProgress?.(Math.min(i + OPT_OUT_CHUNK, entries.length), entries.length);
    }
    return changed;
  }

  list(q: OptOutListQuery): OptOutPage {
    const after = optOutAfter(q.after);
    const from = after === null ? undefined : parseOptOutKey(after)!;
    const n = q.limit + 1;
    const rows =
      q.type === undefined
        ? from
          ? this.pages.after.all(from.type, from.value, n)
          : this.pages.first.all(n)
        : from
          ? this.afterOfType(q.type, from, n)
          : this.pages.typeFirst.all(q.type, n);
    const page = rows.slice(0, q.limit);
    const last = page[page.length - 1];
    return {
      entries: page.map((r) => ({ type: r.type, value: r.value, createdAt: r.created_at })),
      next: rows.length > q.limit && last ? `${last.type}:${last.value}` : null,
      total: (q.type === undefined ? this.count.get() : this.countType.get(q.type))!.n,
    };
  }

  /** A typed page after a cursor, which may name another type (then the page starts or ends that type's range). */
  private afterOfType(type: OptOutType, from: OptOutEntry, n: number): EntryRow[] {
    if (from.type === type) return this.pages.typeAfter.all(type, from.value, n);
    return from.type < type ? this.pages.typeFirst.all(type, n) : [];
  }

  allEntries(): OptOutEntry[] {
    return this.all.all();
  }

  currentVersion(): number {
    return this.version.get()?.version ?? 0;
  }

  auditRecords(limit: number): OptOutAuditRecord[] {
    return this.auditList.all(limit);
  }
}
