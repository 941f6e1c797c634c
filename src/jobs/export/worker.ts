import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { SearchEngine } from '../../engine/port.js';
import { sleep, type JobKindDef } from '../runner.js';
import { exportFile } from './links.js';
import type { ExportPayload } from './payload.js';

export interface ExportWorkerOptions {
  engine: SearchEngine;
  dataDir: string;
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
      const file = exportFile(o.dataDir, job.id);
      await mkdir(dirname(file), { recursive: true });
      await removeTemps(file);
      const tmp = `${file}.${ctx.attempt}.tmp`;
      ctx.progress({ rows_exported: 0 });
      const res = await o.engine.exportCsv(p.entity, p.ir, {
        columns: p.columns,
        maxRows: p.rowsToExport,
        maxPerCompany: p.maxPerCompany,
        file: tmp,
        batchRows: o.batchRows,
        budgetMs: o.batchBudgetMs,
        onBatch: async (rows) => {
          ctx.progress({ rows_exported: rows });
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
      return { status: 'completed', result: { rows_exported: res.rows, bytes: res.bytes, release_id: res.releaseId }, charge: res.rows };
    },
    giveUp(_job, error) {
      const why = (error as Error)?.message ?? String(error);
      return { error: `The export failed (${why}). No credits were charged; start the export again, with a narrower filter if it timed out.`, charge: 0, result: { rows_exported: 0 } };
    },
  };
}

/** Temp files of earlier runs of this export (`<id>.csv.<attempt>.tmp`). */
async function removeTemps(file: string): Promise<void> {
  const dir = dirname(file);
  const prefix = `${basename(file)}.`;
  for (const name of await readdir(dir)) {
    if (name.startsWith(prefix) && name.endsWith('.tmp')) await rm(join(dir, name), { force: true });
  }
}
