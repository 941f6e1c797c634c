import type { Database, Transaction } from 'better-sqlite3';

interface Job {
  run: () => unknown;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

/**
 * Group commit: the credit writes that every paid request makes (a hold's reserve, its settlement, the answer's
 * quota read) are queued and run together, once per turn of the event loop, in one IMMEDIATE transaction of the
 * state file. Each job is a transaction function of its own, so inside the group it runs as a savepoint: a job that
 * throws (a 402 refusal, a guard) is rolled back alone and rejects alone, the others still commit. What a job sees
 * and writes is exactly what it would alone, in the order the calls were made; other processes queue on the write
 * lock as before. A caller's promise settles only once the group has committed, so no answer is sent on a write
 * that could still be lost; a process that dies before the commit loses the whole group, none of whose callers had
 * heard back. What changes is the cost: one BEGIN, one COMMIT and one write-ahead-log append for the group, where
 * each call paid its own (about half the CPU of a hold and its settlement; docs/performance.md).
 */
export class GroupCommit {
  private queue: Job[] = [];
  private scheduled = false;
  private readonly group: Transaction<(jobs: readonly Job[], outcomes: Array<{ ok: boolean; value: unknown }>) => void>;

  constructor(private readonly db: Database) {
    this.group = db.transaction((jobs: readonly Job[], outcomes: Array<{ ok: boolean; value: unknown }>) => {
      for (const job of jobs) {
        try {
          outcomes.push({ ok: true, value: job.run() });
        } catch (e) {
          outcomes.push({ ok: false, value: e });
        }
      }
    });
  }

  /** Runs `work` (a transaction function of this database) with the next group; resolves once the group commits. */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run: work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Runs the queued jobs now (the store's close runs what is queued before the file closes). */
  flush(): void {
    this.scheduled = false;
    const jobs = this.queue;
    if (jobs.length === 0) return;
    this.queue = [];
    if (!this.db.open) {
      for (const job of jobs) job.reject(new Error('the state store is closed'));
      return;
    }
    const outcomes: Array<{ ok: boolean; value: unknown }> = [];
    try {
      // A group of one is that job's own transaction, as without grouping.
      if (jobs.length === 1) outcomes.push({ ok: true, value: jobs[0]!.run() });
      else this.group.immediate(jobs, outcomes);
    } catch (e) {
      // The group did not commit (the lock not taken in time, the disk): no job's write stands, each caller hears.
      for (const job of jobs) job.reject(e);
      return;
    }
    jobs.forEach((job, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.value);
    });
  }
}
