import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { SearchEngine } from '../../engine/port.js';
import { sweepInBackground } from '../folder-sweep.js';
import { type JobKindDef, sleep } from '../runner.js';
import { EXPORT_FILE_NAME, exportFile } from './links.js';
import { EXPORT_LINK_TTL_MS, type ExportPayload } from './payload.js';

export interface ExportWorkerOptions {
  engine: SearchEngine;
  /** CDS_FILES_DIR: where export files go (shared by every process of a deployment). */
  filesDir: string;
  concurrency: number;
  batchRows: number;
  batchBudgetMs: number;
  /** Testing only: pause after each batch (CDS_EXPORT_BATCH_DELAY_MS). */
  batchDelayMs: number;
}

/**
 * The `export` job kind: writes the CSV to a temp file next to its final name and renames it into place,
 * so a run that dies leaves no half file under the served name and a resumed run simply starts again.
 * Charges exactly the rows written (at most the hold); a failure charges nothing.
 */
export function exportJobKind(o: ExportWorkerOptions): JobKindDef<ExportPayload> {
  return {
    kind: 'export',
    concurrency: o.concurrency,
    async run(job, ctx) {
      const p = job.payload;
      const file = exportFile(o.filesDir, job.id);
      await mkdir(dirname(file), { recursive: true });
      await removeTemps(file);
      sweepInBackground(dirname(file), ctx.now(), exportKeep);
      const tmp = `${file}.${ctx.attempt}.tmp`;
      await ctx.progress({ rows_exported: 0 });
      const res = await o.engine.exportCsv(p.entity, p.ir, {
        columns: p.columns,
        maxRows: p.rowsToExport,
        maxPerCompany: p.maxPerCompany,
        file: tmp,
        batchRows: o.batchRows,
        budgetMs: o.batchBudgetMs,
        onBatch: async (rows) => {
          await ctx.progress({ rows_exported: rows });
          if (o.batchDelayMs > 0) await sleep(o.batchDelayMs, ctx.signal);
        },
      });
      try {
        ctx.checkpoint();
        await rename(tmp, file);
      } catch (e) {
        await rm(tmp, { force: true });
        throw e;
      }
      return {
        status: 'completed',
        result: { rows_exported: res.rows, bytes: res.bytes, release_id: res.releaseId },
        charge: res.rows,
      };
    },
    giveUp(_job, error) {
      const why = (error as Error)?.message ?? String(error);
      return {
        error:
          `The export failed (${why}). No credits were charged; start the export again, with a narrower filter if ` +
          `it timed out.`,
        charge: 0,
        result: { rows_exported: 0 },
      };
    },
  };
}

/** Temp files of earlier runs of this export (`<id>.csv.<attempt>.tmp` and the engine's `….part`). */
async function removeTemps(file: string): Promise<void> {
  const dir = dirname(file);
  const prefix = `${basename(file)}.`;
  for (const name of await readdir(dir)) {
    if (name.startsWith(prefix)) await rm(join(dir, name), { force: true });
  }
}

const DAY_MS = 86_400_000;
/** Past every link's lifetime (7 days), with a day of margin. */
const KEEP_MS = Math.max(...Object.values(EXPORT_LINK_TTL_MS)) + DAY_MS;

/**
 * What the exports folder's sweep (at the start of an export, at most once a minute) keeps: export files until no
 * link can reach them (by modification time, which is their completion), temp files of runs that will never resume
 * for a day.
 */
const exportKeep = (name: string): number | null =>
  EXPORT_FILE_NAME.test(name) ? KEEP_MS : /\.(tmp|part)$/.test(name) ? DAY_MS : null;
