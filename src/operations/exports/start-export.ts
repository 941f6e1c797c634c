import type { CreditSnapshot } from '../../domain/account.js';
import type { ColumnDef } from '../../domain/catalog/index.js';
import { AppError } from '../../domain/errors/index.js';
import { newId } from '../../domain/ids.js';
import type { IRNode } from '../../domain/query/ir.js';
import { FAR_FUTURE } from '../../domain/quota/index.js';
import {
  type ExportFamily,
  type ExportPayload,
  FAMILY_B_EXPORT_MAX_ROWS,
  type TruncationReason,
} from '../../jobs/export/payload.js';
import type { Job } from '../../jobs/port.js';
import { requireAccount } from '../account/get-account.js';
import { creditsCutResetsAt } from '../credits-cut.js';
import { addQuote, contactAvailable, QuoteReady } from '../dry-run.js';
import { engineFor } from '../engine-for.js';
import type { OpContext, Warning } from '../types.js';

export interface StartExportInput {
  family: ExportFamily;
  /** The parsed filter (family A filter, family B flat filters + where_sql: the same Query IR). */
  ir: IRNode;
  keysApplied: string[];
  /** Output columns, `id` first; headers are names (A, unless `header` is "labels") or display labels (B). */
  columns: readonly ColumnDef[];
  /** Family A: the header row holds column keys (default) or the catalog's display labels. */
  header?: 'keys' | 'labels' | undefined;
  /** The client's row cap, if any. */
  maxRows?: number | undefined;
  /** At most this many rows per company_domain (rows without one are not capped). */
  maxPerCompany?: number | undefined;
}

export interface StartedExport {
  job: Job<ExportPayload>;
  rowsAvailable: number;
  rowsToExport: number;
  truncated: boolean;
  truncationReason: TruncationReason | null;
  /** True when the contact credits left cut the export. */
  cappedByCredits: boolean;
  warnings: Warning[];
}

/**
 * Starts a CSV export (family A POST /v1/exports and family B POST /api/v1/contacts/search/export):
 * 1. counts the matches (exact, within the search budget; past it 504 query.timeout) and, with a
 *    per-company cap, the rows it keeps; nothing matches -> 400 export.no_matches, free, no job;
 * 2. in ONE state-store transaction: refuses a second queued or running export (409 export.running), holds
 *    contact credits (category `export`) for the rows to export, up to what is left (none left -> 402
 *    contact_credits.exhausted), and queues the job;
 * 3. the job writes the file and charges only the rows written; a failed job charges nothing.
 */
export async function startExport(ctx: OpContext, input: StartExportInput): Promise<StartedExport> {
  const { services } = ctx;
  const account = requireAccount(ctx);
  // Cheap early answer; the authoritative check runs inside the create transaction below.
  if (
    (await services.state.listJobs(account.id, 'export', 1)).some(
      (j) => j.status === 'queued' || j.status === 'running',
    )
  )
    throw exportRunning();

  const maxPerCompany = input.maxPerCompany ?? null;
  const count = await engineFor(ctx).exportCount('contact', input.ir, {
    maxPerCompany,
    budgetMs: services.config.searchBudgetMs,
  });
  if (count.matches === 0) {
    const last = input.keysApplied[input.keysApplied.length - 1];
    throw new AppError(
      'export.no_matches',
      'The filter matches no contacts; no export was started and nothing was charged.',
      {
        hint: last
          ? `Remove a key to widen the audience, for example ${last}; size it first with the count route (free).`
          : 'The data release holds no contacts.',
      },
    );
  }

  const bound = input.family === 'A' ? services.config.exportMaxRows : FAMILY_B_EXPORT_MAX_ROWS;
  // Candidate caps in tie order: the client's own max_rows names a cut before the service's limits.
  const caps: Array<{ reason: TruncationReason; rows: number }> = [];
  if (input.maxRows !== undefined) caps.push({ reason: 'max_rows', rows: input.maxRows });
  caps.push({ reason: 'export_limit', rows: bound });
  if (maxPerCompany !== null) caps.push({ reason: 'max_rows_per_company', rows: count.capped });
  const wanted = Math.min(count.matches, ...caps.map((c) => c.rows));
  const cut = wanted < count.matches ? caps.find((c) => c.rows === wanted)!.reason : null;

  if (ctx.dryRun) {
    // The quote: the rows the credits left would let it export (charged on completion), no job.
    const { available, binding, resets_at } = await contactAvailable(ctx, 'export');
    const rows = Math.min(wanted, available);
    addQuote(ctx, {
      units: rows,
      kind: 'contact',
      credits: rows,
      available,
      sufficient: rows === wanted,
      ...(rows < wanted ? { cut: { binding, resets_at } } : {}),
    });
    throw new QuoteReady();
  }
  const { job } = await services.jobs.enqueue({
    id: newId('export'),
    accountId: account.id,
    kind: 'export',
    hold: { kind: 'contact', category: 'export', amount: wanted, mode: 'up_to', minimum: 1 },
    exclusive: { kinds: ['export'], error: exportRunning },
    now: ctx.now,
    payload: (h) => {
      const rows = Math.min(wanted, h?.amount ?? 0);
      return {
        family: input.family,
        entity: 'contact',
        ir: input.ir,
        keysApplied: input.keysApplied,
        columns: input.columns.map((c) => ({
          name: c.name,
          header: input.family === 'A' && input.header !== 'labels' ? c.name : c.label,
        })),
        maxPerCompany,
        maxRows: input.maxRows ?? null,
        rowsAvailable: count.matches,
        rowsToExport: rows,
        truncationReason: rows < wanted ? 'credits' : cut,
        releaseId: count.releaseId,
      };
    },
  });
  const p = job.payload;
  const reason = p.truncationReason;
  const cappedByCredits = reason === 'credits';
  const warnings: Warning[] = [];
  if (reason === 'credits') {
    // The job is queued and its hold taken: the window details of the warning are best effort from here on.
    const snap = await services.state.snapshot(account.id, ctx.now).catch((err: unknown) => {
      services.logger.warn({ err }, 'credits-cut warning left out: the state store did not answer');
      return undefined;
    });
    if (snap) warnings.push(creditsCutWarning(snap, p.rowsToExport, wanted, count.matches));
  } else if (reason) warnings.push(truncatedWarning(reason, p.rowsToExport, count.matches, { bound, maxPerCompany }));
  return {
    job,
    rowsAvailable: count.matches,
    rowsToExport: p.rowsToExport,
    truncated: p.truncationReason !== null,
    truncationReason: p.truncationReason,
    cappedByCredits,
    warnings,
  };
}

export function exportRunning(): AppError {
  return new AppError('export.running', 'One export already runs on the account.', {
    hint: 'Poll the running export until it is completed or failed, then start the next one.',
  });
}

const fmt = (n: number) => n.toLocaleString('en-US');

function truncatedWarning(
  reason: Exclude<TruncationReason, 'credits'>,
  rows: number,
  available: number,
  o: { bound: number; maxPerCompany: number | null },
): Warning {
  const head = `The export holds ${fmt(rows)} of ${fmt(available)} matching rows`;
  switch (reason) {
    case 'max_rows':
      return {
        code: 'export_truncated',
        message: `${head}: max_rows cut it.`,
        hint: 'Raise max_rows to export more of the audience.',
      };
    case 'export_limit':
      return {
        code: 'export_truncated',
        message: `${head}: one export holds at most ${fmt(o.bound)} rows.`,
        hint: 'Split the audience with narrower filters (for example by country) and export each part.',
      };
    case 'max_rows_per_company':
      return {
        code: 'export_truncated',
        message: `${head}: max_rows_per_company keeps at most ${o.maxPerCompany} per company domain.`,
        hint: 'Raise or drop max_rows_per_company to keep more rows per company.',
      };
  }
}

/**
 * `export_truncated` when the contact credits left cut the export: resets_at is the reset of the window
 * that cut it, chosen as the quota module chooses the binding window of a 402 (the one that resets last
 * among those short; the free pool never resets: far-future, and the hint says the pool is spent).
 */
function creditsCutWarning(snapshot: CreditSnapshot, granted: number, wanted: number, available: number): Warning {
  const resetsAt = creditsCutResetsAt(snapshot, granted, wanted, 'export');
  const pool = resetsAt === FAR_FUTURE;
  return {
    code: 'export_truncated',
    message:
      `The export holds ${fmt(granted)} of ${fmt(available)} matching rows: only ${fmt(granted)} contact credits ` +
      `were left${pool ? " in the free plan's lifetime pool, which is now spent" : ''}.`,
    hint: pool
      ? 'The free pool is spent and never resets; move to a paid plan to export more.'
      : `The cap resets at ${resetsAt}; export the rest after that, or ask for fewer rows.`,
    resets_at: resetsAt,
  };
}
