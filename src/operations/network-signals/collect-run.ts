import { isAppError } from '../../domain/errors/index.js';
import { parseNetworkUrl } from '../../domain/normalize/index.js';
import type { JobKindDef, JobOutcome, JobRunContext } from '../../jobs/runner.js';
import type { CollectPayload, CollectResult, ScrapeReason } from '../../network-signals/collect-payload.js';
import {
  type AddedSignals,
  type Engager,
  type NewSignal,
  type SignalRun,
  SourceError,
} from '../../network-signals/port.js';
import { withContactCredits } from '../credits.js';
import { Settlement } from '../settlement.js';
import type { OpContext, Services } from '../types.js';
import type { CollectJob } from './collect-job.js';
import { contactsBySlug, personKey } from './match-contacts.js';

/**
 * The worker of `collect` jobs and `alert_run` jobs (runner contract: src/jobs/runner.ts). Reads the
 * source batch by batch from the saved cursor (a resumed job goes on where it stopped; rows it already
 * wrote are skipped by position), matches engagers to stored contacts (one contact credit per matched row
 * through the credits module; with none left the row is kept without its contact), writes the rows with
 * their contact charge in one store step (a worker killed between two steps would leave rows unpaid) and
 * saves progress after each batch, then answers the settlement: one premium credit per unique new lead
 * (at most the hold), the rest returned. A source failure ends the job `failed` with nothing charged; rows
 * already written stay readable. Engine hiccups are thrown, so the runner retries the run.
 */
/** Engagements read at most for one profile or post job: a bound against a source that never ends. */
export const MAX_ENGAGERS = 100_000;

export async function runCollect(services: Services, job: CollectJob, ctx: JobRunContext): Promise<JobOutcome> {
  const { state } = services;
  const p = job.payload;
  const source = services.networkSource;
  const hold = job.holdId ? await state.getHold(job.holdId) : undefined;
  const holdAmount = hold?.amount ?? 0;
  const run: SignalRun = { accountId: job.accountId, sourceType: p.sourceType, sourceId: p.sourceId, runId: job.id };
  const saved = job.result;
  // Counters come from the rows themselves, so a resumed job counts what the earlier attempt wrote.
  const stats = await state.runStats(job.id);
  const counters = {
    signals: stats.signals,
    leads: stats.leads,
    contacts_matched: stats.contactsMatched,
    contacts_skipped: saved.contacts_skipped ?? 0,
  };
  let position = saved.position ?? 0;
  let cursor = saved.cursor ?? null;
  let reason: ScrapeReason | null = null;

  try {
    if (!saved.done) {
      const limit = Math.max(0, (p.kind === 'network_company' ? p.requested : MAX_ENGAGERS) - position);
      const batches =
        limit > 0
          ? source.collect({ kind: p.kind, url: p.target, slug: p.slug }, { cursor, limit, signal: ctx.signal })
          : [];
      for await (const batch of batches) {
        ctx.checkpoint();
        const added = await writeBatch(
          services,
          job,
          run,
          batch.items,
          position,
          Math.max(0, holdAmount - counters.leads),
          ctx.now(),
        );
        counters.signals += added.written;
        counters.leads += added.newLeads;
        counters.contacts_matched += added.withContact;
        counters.contacts_skipped += added.skipped;
        position += added.accepted;
        if (added.accepted < batch.items.length) {
          reason = 'hold_exhausted';
          break;
        }
        cursor = batch.nextCursor;
        // Throws once the job was cancelled (alert deleted) or the runner stops: the runner handles both.
        await ctx.progress({ cursor, position, done: cursor === null, ...counters });
        if (cursor === null) break;
      }
    }
  } catch (e) {
    if (ctx.signal.aborted || !(e instanceof SourceError)) throw e;
    return failed(services, job, e.message, {
      cursor,
      position,
      contacts_skipped: counters.contacts_skipped,
      source: source.name,
    });
  }
  const end = await state.runStats(job.id);
  reason ??=
    end.signals === 0
      ? 'no_engagers'
      : position >= (p.kind === 'network_company' ? p.requested : MAX_ENGAGERS)
        ? 'limit_reached'
        : 'source_exhausted';
  const charge = Math.min(end.leads, holdAmount);
  const result: CollectResult = {
    position,
    done: true,
    signals: end.signals,
    leads: end.leads,
    contacts_matched: end.contactsMatched,
    contacts_skipped: counters.contacts_skipped,
    // A company page read to the followers asked for is complete; a profile or post cut short is partial.
    outcome:
      reason === 'hold_exhausted' || (reason === 'limit_reached' && p.kind !== 'network_company')
        ? 'partial'
        : end.signals === 0
          ? 'no_matches'
          : 'completed',
    charged: charge,
    scrape_outcome: scrapeOutcome(source.name, reason, position, counters.contacts_skipped),
  };
  return { status: 'completed', result: result as Record<string, unknown>, error: null, charge };
}

function scrapeOutcome(
  source: string,
  reason: ScrapeReason,
  position: number,
  skipped: number,
): NonNullable<CollectResult['scrape_outcome']> {
  return { source, reason, engagers_read: position, contact_credits_exhausted: skipped > 0, contacts_skipped: skipped };
}

/**
 * A failed run: nothing is charged. A failed alert run also forgets the leads it found, so the next run
 * counts (and charges) them as new.
 */
async function failed(
  services: Services,
  job: CollectJob,
  error: string,
  at: { cursor?: string | null; position?: number; contacts_skipped?: number; source: string },
): Promise<JobOutcome> {
  const { state } = services;
  if (job.payload.sourceType === 'alert') await state.forgetRunLeads(job.id);
  const end = await state.runStats(job.id);
  const position = at.position ?? job.result.position ?? 0;
  const skipped = at.contacts_skipped ?? job.result.contacts_skipped ?? 0;
  const result: CollectResult = {
    position,
    signals: end.signals,
    leads: end.leads,
    contacts_matched: end.contactsMatched,
    contacts_skipped: skipped,
    charged: 0,
    scrape_outcome: scrapeOutcome(at.source, 'source_error', position, skipped),
  };
  return { status: 'failed', result: result as Record<string, unknown>, error, charge: 0 };
}

/** Registers both job kinds that collect signals. */
export function collectJobKinds(services: Services): JobKindDef<CollectPayload, 'collect' | 'alert_run'>[] {
  const def = (kind: 'collect' | 'alert_run'): JobKindDef<CollectPayload, 'collect' | 'alert_run'> => ({
    kind,
    concurrency: 2,
    run: (job, ctx) => runCollect(services, job as CollectJob, ctx),
    // After the runner's retries (engine unavailable, a crash loop): fail with a text saying what to do.
    giveUp: async (job, e) => {
      const error =
        isAppError(e) && (e.code === 'data.unavailable' || e.code === 'query.timeout')
          ? `Stored contacts could not be matched just now (${e.code}); start the collect again in a few minutes. ` +
            `Rows written so far stay readable.`
          : `The collection stopped on an unexpected error; start it again, and quote the job id ${job.id} to ` +
            `support if it repeats.`;
      const out = await failed(services, job as CollectJob, error, { source: services.networkSource.name });
      return { error, charge: 0, ...(out.result ? { result: out.result } : {}) };
    },
  });
  return [def('collect'), def('alert_run')];
}

/**
 * Matches one batch to stored contacts and writes it. Contact credits are held for the matches, charged
 * for the rows written with their contact, and the rest returned; when none are left the rows are
 * written without contacts (`skipped` counts them).
 */
async function writeBatch(
  services: Services,
  job: CollectJob,
  run: SignalRun,
  items: readonly Engager[],
  position: number,
  maxNewLeads: number,
  now: Date,
): Promise<AddedSignals & { skipped: number }> {
  const { state, config } = services;
  const host = config.networkHost;
  const rows: NewSignal[] = items.map((engager, i) => ({
    position: position + i,
    personKey: personKey(engager, host),
    engager,
    contact: null,
  }));
  const slugOf = (e: Engager) => {
    const u = parseNetworkUrl(e.profile_url, host);
    return u?.kind === 'person' ? u.slug : undefined;
  };
  const contacts = await contactsBySlug(
    services,
    items.map(slugOf).filter((s): s is string => s !== undefined),
  );
  const matches = rows.map((r) => contacts.get(slugOf(r.engager) ?? ''));
  const matched = matches.filter(Boolean).length;
  const skippedOf = (added: AddedSignals) =>
    rows.slice(0, added.accepted).filter((r, i) => matches[i] && !r.contact).length;
  if (matched === 0) return { ...(await state.addSignals(run, rows, now, maxNewLeads)), skipped: 0 };

  const account = await state.getAccount(job.accountId);
  const ctx: OpContext = {
    services,
    requestId: job.id,
    now,
    buildLabel: '',
    spent: 0,
    face: 'rest',
    settlement: new Settlement(),
    dryRun: false,
    ...(account ? { account } : {}),
  };
  try {
    const added = await withContactCredits(
      ctx,
      'enrich',
      matched,
      async (granted, holdId) => {
        let left = granted;
        rows.forEach((r, i) => {
          if (matches[i] && left > 0) {
            r.contact = matches[i]!;
            left--;
          }
        });
        // The rows and their charge in one step: a worker killed after it has both, before it neither.
        const out = await state.addSignals(run, rows, now, maxNewLeads, holdId ?? undefined);
        return { result: out, delivered: out.withContact, ...(out.charged ? { settled: out.charged } : {}) };
      },
      'up_to',
      'signals',
    );
    return { ...added, skipped: skippedOf(added) };
  } catch (e) {
    if (!isAppError(e) || e.code !== 'contact_credits.exhausted') throw e;
    for (const r of rows) r.contact = null;
    const added = await state.addSignals(run, rows, now, maxNewLeads);
    return { ...added, skipped: skippedOf(added) };
  }
}
