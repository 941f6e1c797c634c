import type { Database, Statement, Transaction } from 'better-sqlite3';
import { AppError } from '../../domain/errors/index.js';
import { newId, randomToken } from '../../domain/ids.js';
import {
  type AddedSignals,
  type AlertPatch,
  type AlertRecord,
  HoldNotHeldError,
  type NewAlert,
  type NewSignal,
  type RunStats,
  type SignalQuery,
  type SignalRun,
  type StoredSignal,
} from '../../network-signals/port.js';
import type { SqliteCredits } from './credits.js';

interface SignalRow {
  seq: number;
  id: string;
  account_id: string;
  source_type: StoredSignal['sourceType'];
  source_id: string;
  run_id: string;
  position: number;
  name: string;
  headline: string | null;
  profile_url: string;
  engagement: StoredSignal['engagement'];
  post_url: string | null;
  at: string;
  lead: number;
  contact: string | null;
  created_at: string;
}

interface AlertRow {
  id: string;
  account_id: string;
  kind: AlertRecord['kind'];
  target: string;
  interval_minutes: number;
  max_followers: number | null;
  active: number;
  next_run_at: string | null;
  last_run_id: string | null;
  last_run_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

const toSignal = (r: SignalRow): StoredSignal => ({
  seq: r.seq,
  id: r.id,
  accountId: r.account_id,
  sourceType: r.source_type,
  sourceId: r.source_id,
  runId: r.run_id,
  name: r.name,
  headline: r.headline,
  profileUrl: r.profile_url,
  engagement: r.engagement,
  postUrl: r.post_url,
  at: r.at,
  lead: r.lead === 1,
  contact: r.contact === null ? null : (JSON.parse(r.contact) as Record<string, unknown>),
  createdAt: r.created_at,
});

const toAlert = (r: AlertRow): AlertRecord => ({
  id: r.id,
  accountId: r.account_id,
  kind: r.kind,
  target: r.target,
  intervalMinutes: r.interval_minutes,
  maxFollowers: r.max_followers,
  active: r.active === 1,
  nextRunAt: r.next_run_at,
  lastRunId: r.last_run_id,
  lastRunAt: r.last_run_at,
  lastError: r.last_error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  deletedAt: r.deleted_at,
});

const PATCH_COLUMNS: Record<keyof AlertPatch, keyof AlertRow> = {
  intervalMinutes: 'interval_minutes',
  maxFollowers: 'max_followers',
  active: 'active',
  nextRunAt: 'next_run_at',
  lastRunId: 'last_run_id',
  lastRunAt: 'last_run_at',
  lastError: 'last_error',
};

/**
 * Signal rows and alerts. A person's first sighting for a source (a collect job, or an alert over all its
 * runs) is recorded in `signal_people`: that is what makes a row a lead, so lead counting is one
 * primary-key insert and survives restarts.
 */
export class SqliteSignals {
  private readonly insertSignal: Statement<[Omit<SignalRow, 'seq'>]>;
  private readonly hasPosition: Statement<[string, number], { one: number }>;
  private readonly insertPerson: Statement<[{ source_id: string; person_key: string; run_id: string }]>;
  private readonly seenPerson: Statement<[string, string], { one: number }>;
  private readonly statsOf: Statement<[string, string, string], { signals: number; contacts: number; leads: number }>;
  private readonly unmarkLeads: Statement<[string]>;
  private readonly forgetPeople: Statement<[string]>;
  private readonly insertAlert: Statement<[AlertRow]>;
  private readonly alertById: Statement<[string], AlertRow>;
  private readonly alertsOf: Statement<[string], AlertRow>;
  private readonly activeCount: Statement<[string], { n: number }>;
  private readonly due: Statement<[string, number], AlertRow>;
  private readonly addTx: Transaction<
    (
      run: SignalRun,
      rows: readonly NewSignal[],
      now: Date,
      maxNewLeads: number | undefined,
      chargeHold: string | undefined,
    ) => AddedSignals
  >;
  private readonly forgetTx: Transaction<(runId: string) => void>;
  private readonly createAlertTx: Transaction<(input: NewAlert, maxActive: number) => AlertRecord>;
  private readonly updateAlertTx: Transaction<
    (id: string, patch: AlertPatch, now: Date, maxActive: number | undefined) => AlertRecord
  >;

  constructor(
    private readonly db: Database,
    private readonly credits: SqliteCredits,
  ) {
    this.insertSignal = db.prepare(
      `INSERT INTO signals (id, account_id, source_type, source_id, run_id, position, name, headline, profile_url, engagement, post_url, at, lead, contact, created_at)
       VALUES (@id, @account_id, @source_type, @source_id, @run_id, @position, @name, @headline, @profile_url, @engagement, @post_url, @at, @lead, @contact, @created_at)`,
    );
    this.hasPosition = db.prepare('SELECT 1 AS one FROM signals WHERE run_id = ? AND position = ?');
    this.insertPerson = db.prepare(
      'INSERT OR IGNORE INTO signal_people (source_id, person_key, run_id) VALUES (@source_id, @person_key, @run_id)',
    );
    this.seenPerson = db.prepare('SELECT 1 AS one FROM signal_people WHERE source_id = ? AND person_key = ?');
    this.statsOf = db.prepare(
      `SELECT (SELECT COUNT(*) FROM signals WHERE run_id = ?) AS signals,
              (SELECT COUNT(*) FROM signals WHERE run_id = ? AND contact IS NOT NULL) AS contacts,
              (SELECT COUNT(*) FROM signal_people WHERE run_id = ?) AS leads`,
    );
    this.unmarkLeads = db.prepare('UPDATE signals SET lead = 0 WHERE run_id = ? AND lead = 1');
    this.forgetPeople = db.prepare('DELETE FROM signal_people WHERE run_id = ?');
    this.insertAlert = db.prepare(
      `INSERT INTO alerts (id, account_id, kind, target, interval_minutes, max_followers, active, next_run_at, last_run_id, last_run_at, last_error, created_at, updated_at, deleted_at)
       VALUES (@id, @account_id, @kind, @target, @interval_minutes, @max_followers, @active, @next_run_at, @last_run_id, @last_run_at, @last_error, @created_at, @updated_at, @deleted_at)`,
    );
    this.alertById = db.prepare('SELECT * FROM alerts WHERE id = ?');
    this.alertsOf = db.prepare(
      'SELECT * FROM alerts WHERE account_id = ? AND deleted_at IS NULL ORDER BY created_at DESC, id DESC',
    );
    this.activeCount = db.prepare(
      'SELECT COUNT(*) AS n FROM alerts WHERE account_id = ? AND active = 1 AND deleted_at IS NULL',
    );
    this.due = db.prepare(
      'SELECT * FROM alerts WHERE active = 1 AND deleted_at IS NULL AND next_run_at IS NOT NULL AND next_run_at <= ' +
        '? ORDER BY next_run_at, id LIMIT ?',
    );
    this.addTx = db.transaction((run, rows, now, maxNewLeads, chargeHold) => {
      if (chargeHold === undefined) return this.addIn(run, rows, now, maxNewLeads);
      // The batch and its charge in one transaction: a hold swept meanwhile refuses the batch (rolled back).
      const out = this.addIn(run, rows, now, maxNewLeads);
      const charged = this.credits.commitWithin(chargeHold, out.withContact, now);
      if (!charged) throw new HoldNotHeldError(chargeHold);
      return { ...out, charged };
    });
    this.forgetTx = db.transaction((runId) => {
      this.unmarkLeads.run(runId);
      this.forgetPeople.run(runId);
    });
    this.createAlertTx = db.transaction((input, maxActive) => this.createAlertIn(input, maxActive));
    this.updateAlertTx = db.transaction((id, patch, now, maxActive) => this.updateAlertIn(id, patch, now, maxActive));
  }

  addSignals(
    run: SignalRun,
    rows: readonly NewSignal[],
    now: Date,
    maxNewLeads?: number,
    chargeHold?: string,
  ): AddedSignals {
    return this.addTx.immediate(run, rows, now, maxNewLeads, chargeHold);
  }

  private addIn(run: SignalRun, rows: readonly NewSignal[], now: Date, maxNewLeads: number | undefined): AddedSignals {
    const out: AddedSignals = { accepted: 0, written: 0, withContact: 0, newLeads: 0 };
    const createdAt = now.toISOString();
    for (const row of rows) {
      if (this.hasPosition.get(run.runId, row.position)) {
        out.accepted++;
        continue;
      }
      // A person not yet seen for this source is a lead of this run; past the cap the batch stops before it.
      const isNew = !this.seenPerson.get(run.sourceId, row.personKey);
      if (isNew && maxNewLeads !== undefined && out.newLeads >= maxNewLeads) break;
      const claimed =
        isNew &&
        this.insertPerson.run({ source_id: run.sourceId, person_key: row.personKey, run_id: run.runId }).changes === 1;
      const e = row.engager;
      this.insertSignal.run({
        id: `sig_${randomToken(16)}`,
        account_id: run.accountId,
        source_type: run.sourceType,
        source_id: run.sourceId,
        run_id: run.runId,
        position: row.position,
        name: e.name,
        headline: e.headline,
        profile_url: e.profile_url,
        engagement: e.engagement,
        post_url: e.post_url,
        at: e.at,
        lead: claimed ? 1 : 0,
        contact: row.contact ? JSON.stringify(row.contact) : null,
        created_at: createdAt,
      });
      out.accepted++;
      out.written++;
      if (row.contact) out.withContact++;
      if (claimed) out.newLeads++;
    }
    return out;
  }

  runStats(runId: string): RunStats {
    const r = this.statsOf.get(runId, runId, runId)!;
    return { signals: r.signals, leads: r.leads, contactsMatched: r.contacts };
  }

  forgetRunLeads(runId: string): void {
    this.forgetTx.immediate(runId);
  }

  listSignals(q: SignalQuery): StoredSignal[] {
    const { where, params } = signalWhere(q);
    if (q.afterSeq !== null) {
      where.push('seq > ?');
      params.push(q.afterSeq);
    }
    const sql = `SELECT * FROM signals WHERE ${where.join(' AND ')} ORDER BY seq LIMIT ?`;
    return this.db
      .prepare<unknown[], SignalRow>(sql)
      .all(...params, q.limit)
      .map(toSignal);
  }

  countSignals(q: Omit<SignalQuery, 'afterSeq' | 'limit'>): number {
    const { where, params } = signalWhere(q);
    return this.db
      .prepare<unknown[], { n: number }>(`SELECT COUNT(*) AS n FROM signals WHERE ${where.join(' AND ')}`)
      .get(...params)!.n;
  }

  createAlert(input: NewAlert, maxActive: number): AlertRecord {
    return this.createAlertTx.immediate(input, maxActive);
  }

  private createAlertIn(input: NewAlert, maxActive: number): AlertRecord {
    this.checkActiveRoom(input.accountId, maxActive);
    const now = input.now.toISOString();
    const row: AlertRow = {
      id: newId('alert'),
      account_id: input.accountId,
      kind: input.kind,
      target: input.target,
      interval_minutes: input.intervalMinutes,
      max_followers: input.maxFollowers,
      active: 1,
      // The first run is due at once: it records who engages today; later runs find who is new.
      next_run_at: now,
      last_run_id: null,
      last_run_at: null,
      last_error: null,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    this.insertAlert.run(row);
    return toAlert(row);
  }

  getAlert(id: string): AlertRecord | undefined {
    const row = this.alertById.get(id);
    return row && toAlert(row);
  }

  listAlerts(accountId: string): AlertRecord[] {
    return this.alertsOf.all(accountId).map(toAlert);
  }

  updateAlert(id: string, patch: AlertPatch, now: Date, maxActive?: number): AlertRecord {
    return this.updateAlertTx.immediate(id, patch, now, maxActive);
  }

  private updateAlertIn(id: string, patch: AlertPatch, now: Date, maxActive: number | undefined): AlertRecord {
    const row = this.alertById.get(id);
    if (!row || row.deleted_at !== null)
      throw new AppError('alert.not_found', `No alert has the id ${JSON.stringify(id)}.`, { field: 'id' });
    if (patch.active === true && row.active === 0 && maxActive !== undefined)
      this.checkActiveRoom(row.account_id, maxActive);
    const sets: string[] = ['updated_at = @updated_at'];
    const params: Record<string, unknown> = { id, updated_at: now.toISOString() };
    for (const [key, column] of Object.entries(PATCH_COLUMNS) as [keyof AlertPatch, keyof AlertRow][]) {
      if (patch[key] === undefined) continue;
      sets.push(`${column} = @${column}`);
      params[column] = typeof patch[key] === 'boolean' ? (patch[key] ? 1 : 0) : patch[key];
    }
    this.db.prepare(`UPDATE alerts SET ${sets.join(', ')} WHERE id = @id`).run(params);
    return toAlert(this.alertById.get(id)!);
  }

  deleteAlert(id: string, now: Date): AlertRecord {
    const at = now.toISOString();
    this.db
      .prepare(
        'UPDATE alerts SET deleted_at = ?, updated_at = ?, active = 0, next_run_at = NULL WHERE id = ? AND ' +
          'deleted_at IS NULL',
      )
      .run(at, at, id);
    return toAlert(this.alertById.get(id)!);
  }

  dueAlerts(now: Date, limit: number): AlertRecord[] {
    return this.due.all(now.toISOString(), limit).map(toAlert);
  }

  claimAlertSlot(id: string, due: string, next: string, now: Date): boolean {
    return (
      this.db
        .prepare(
          'UPDATE alerts SET next_run_at = ?, updated_at = ? WHERE id = ? AND next_run_at = ? AND active = 1 AND ' +
            'deleted_at IS NULL',
        )
        .run(next, now.toISOString(), id, due).changes === 1
    );
  }

  private checkActiveRoom(accountId: string, maxActive: number): void {
    const { n } = this.activeCount.get(accountId)!;
    if (n >= maxActive) {
      throw new AppError(
        'alerts.limit_reached',
        `The account already has ${n} active alerts; at most ${maxActive} may be active.`,
        {
          hint: 'Deactivate (PATCH active: false) or delete an alert first.',
        },
      );
    }
  }
}

function signalWhere(q: Omit<SignalQuery, 'afterSeq' | 'limit'>): { where: string[]; params: unknown[] } {
  const where = ['account_id = ?'];
  const params: unknown[] = [q.accountId];
  if (q.sourceType !== undefined) {
    where.push('source_type = ?');
    params.push(q.sourceType);
  }
  if (q.sourceId !== undefined) {
    where.push('source_id = ?');
    params.push(q.sourceId);
  }
  if (q.runId !== undefined) {
    where.push('run_id = ?');
    params.push(q.runId);
  }
  return { where, params };
}
