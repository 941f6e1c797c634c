import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type Candidate, matchInput } from '../../domain/enrichment/match.js';
import { csvRecord } from '../../domain/text/csv-cell.js';
import { mappingIndexes } from '../../domain/uploads/mapping.js';
import { type RowInput, rowInput } from '../../domain/uploads/row-input.js';
import { RESULT_FILE_NAME, resultFile } from '../../jobs/enrichment/files.js';
import {
  type EnrichmentRunPayload,
  type EnrichmentRunResult,
  RUN_BATCH_ROWS,
  UPLOAD_KEEP_MS,
} from '../../jobs/enrichment/payload.js';
import { UploadStore } from '../../jobs/enrichment/upload-store.js';
import { sweepInBackground } from '../../jobs/folder-sweep.js';
import { FatalJobError, type JobKindDef, sleep } from '../../jobs/runner.js';
import { resolveColumns, shapeRow } from '../contacts/columns.js';
import { candidateColumns, candidatesWhere } from '../enrichment/lookup-candidates.js';
import type { Services } from '../types.js';
import { contactCell } from './cells.js';
import { storedSheet } from './sheet.js';

/** The per-row outcome written in the result's `Match status` column. */
export type RowStatus =
  | 'matched'
  | 'no_match'
  | 'off_domain'
  | 'ambiguous'
  | 'invalid'
  | 'invalid_domain'
  | 'missing'
  | 'not_charged_credits';

export const STATUS_HEADER = 'Match status';
const SAMPLE_ROWS = 5;
const WARNING_KEYS = 20;

/** The enrichment default column set (POST /v1/enrichments without `columns`), by display label in the result. */
export const RESULT_COLUMNS = resolveColumns('contact', undefined);

/**
 * The `enrichment_run` job kind: reads the upload, matches its rows 100 at a time with the rules of
 * POST /v1/enrichments (candidates in one engine query per batch, then matchInput), and writes the result CSV
 * (the input columns, `Match status`, then the enrichment columns by display label) to a temp file renamed into
 * place. One contact credit per matched row, at most the hold: once matched rows reach it, later matches are
 * written as `not_charged_credits` without their contact and the status says the run was cut by credits.
 * Opted-out people are not in the engine's answers, so their rows are misses and cost nothing.
 */
export function enrichmentRunJobKind(services: Services): JobKindDef<EnrichmentRunPayload, 'enrichment_run'> {
  const { config, engine } = services;
  const uploads = new UploadStore(config.filesDir);
  return {
    kind: 'enrichment_run',
    concurrency: 1,
    async run(job, ctx) {
      const p = job.payload;
      const sheet = storedSheet(await uploads.readRunSheet(p.uploadId));
      const m = mappingIndexes(sheet.headers, p.mapping);
      if (!m.ok) throw new FatalJobError(m.message);
      const file = resultFile(config.filesDir, job.id);
      await mkdir(dirname(file), { recursive: true });
      // Results and temp files past UPLOAD_KEEP_MS leave in the background, at most once a minute.
      sweepInBackground(dirname(file), ctx.now(), resultKeep);
      const tmp = `${file}.${ctx.attempt}.tmp`;
      const out = await open(tmp, 'w');
      let matched = 0;
      let processed = 0;
      let cut = false;
      const sample: Array<Record<string, unknown>> = [];
      const warn = {
        duplicate_work_email: [] as string[],
        duplicate_network: [] as string[],
        off_domain: [] as string[],
      };
      try {
        await out.write(csvRecord([...sheet.headers, STATUS_HEADER, ...RESULT_COLUMNS.map((c) => c.label)]));
        await ctx.progress({ processed_rows: 0, matched_rows: 0 } satisfies EnrichmentRunResult);
        for (let start = 0; start < sheet.rowCount; start += RUN_BATCH_ROWS) {
          // Row numbers of the batch: a row's cells are made strings only as it is read (Sheet.cells).
          const rows = Array.from({ length: Math.min(RUN_BATCH_ROWS, sheet.rowCount - start) }, (_, i) => start + i);
          const inputs = rows.map((r) => rowInput(sheet.cells(r), m.indexes, config.networkHost));
          const candidates = await lookup(inputs, job.accountId);
          let lines = '';
          rows.forEach((row, i) => {
            const r = inputs[i]!;
            const { status, contact, duplicate } = outcome(r, candidates);
            let shown = contact;
            let final: RowStatus = status;
            if (status === 'matched') {
              if (matched >= p.held) {
                cut = true;
                final = 'not_charged_credits';
                shown = null;
              } else matched++;
            }
            if (status === 'off_domain' && r.kind === 'input') warn.off_domain.push(r.input);
            if (duplicate && shown && r.kind === 'input')
              warn[duplicate === 'work_email' ? 'duplicate_work_email' : 'duplicate_network'].push(r.input);
            const shaped = shown ? shapeRow(shown, RESULT_COLUMNS) : null;
            lines += csvRecord([
              // Rows keep their own width: the result's columns start after the header's.
              ...sheet.headers.map((_, c) => sheet.cell(row, c)),
              final,
              ...RESULT_COLUMNS.map((c) => (shaped ? contactCell(c, shaped[c.name]) : null)),
            ]);
            if (sample.length < SAMPLE_ROWS)
              sample.push({
                row: start + i + 1,
                input: r.kind === 'missing' ? null : r.input,
                status: final,
                contact: shaped ? { id: shaped.id, name: shaped.name ?? null } : null,
              });
          });
          await out.write(lines);
          processed += rows.length;
          await ctx.progress({ processed_rows: processed, matched_rows: matched } satisfies EnrichmentRunResult);
          if (config.enrichmentBatchDelayMs > 0) await sleep(config.enrichmentBatchDelayMs, ctx.signal);
        }
        await out.close();
        ctx.checkpoint();
        await rename(tmp, file);
      } catch (e) {
        await out.close().catch(() => undefined);
        await rm(tmp, { force: true });
        throw e;
      }
      const info = await stat(file);
      const result: EnrichmentRunResult = {
        processed_rows: processed,
        matched_rows: matched,
        credits_charged: matched,
        truncated: cut,
        truncation_reason: cut ? 'credits' : null,
        warnings: warnings(warn),
        sample,
        bytes: info.size,
      };
      return { status: 'completed', result: result as Record<string, unknown>, charge: matched };
    },
    giveUp(_job, error) {
      const why = (error as Error)?.message ?? String(error);
      return {
        error: `The enrichment run failed (${why}). No credits were charged; start a new upload link and try again.`,
        charge: 0,
        result: { credits_charged: 0 },
      };
    },
  };

  /** One engine query for the batch's candidates, naming the run's account as tenant (fair share of the pool). */
  async function lookup(inputs: readonly RowInput[], tenant: string): Promise<Candidate[]> {
    const where = candidatesWhere(inputs.flatMap((r) => (r.kind === 'input' ? [r.classified] : [])));
    if (!where) return [];
    const res = await engine.query('contact', where, {
      tenant,
      page: { columns: candidateColumns(names()), afterSortKey: null, limit: 5000, budgetMs: config.searchBudgetMs },
    });
    return res.rows as Candidate[];
  }
}

const names = () => RESULT_COLUMNS.map((c) => c.name);

function outcome(
  r: RowInput,
  candidates: readonly Candidate[],
): { status: RowStatus; contact: Candidate | null; duplicate?: 'work_email' | 'network' | undefined } {
  if (r.kind === 'missing') return { status: 'missing', contact: null };
  if (r.kind === 'bad_domain') return { status: 'invalid_domain', contact: null };
  const m = matchInput(r.classified, candidates, r.domain);
  if (m.kind === 'match') return { status: 'matched', contact: m.contact, duplicate: m.duplicate };
  if (m.kind === 'off_domain') return { status: 'off_domain', contact: null };
  if (m.kind === 'miss') return { status: 'no_match', contact: null };
  return { status: m.kind, contact: null };
}

/** The warnings of POST /v1/enrichments, summed over the run (the first inputs of each listed). */
function warnings(w: { duplicate_work_email: string[]; duplicate_network: string[]; off_domain: string[] }) {
  const out: NonNullable<EnrichmentRunResult['warnings']> = [];
  const add = (code: string, list: string[], message: string) => {
    if (list.length) out.push({ code, message, count: list.length, keys_applied: list.slice(0, WARNING_KEYS) });
  };
  add(
    'duplicate_work_email',
    w.duplicate_work_email,
    'Several contacts share a work email; the one with the later last_updated was returned.',
  );
  add(
    'duplicate_network',
    w.duplicate_network,
    'Several contacts share a profile URL; the one with the later last_updated was returned.',
  );
  add('off_domain', w.off_domain, 'Rows held at another employer than their domain cell; not charged.');
  return out;
}

/** The files of the results folder that expire: results and temp files, after UPLOAD_KEEP_MS. */
const resultKeep = (name: string): number | null =>
  RESULT_FILE_NAME.test(name) || name.endsWith('.tmp') ? UPLOAD_KEEP_MS : null;
