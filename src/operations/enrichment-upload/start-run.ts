import type { Account } from '../../domain/account.js';
import { AppError } from '../../domain/errors/index.js';
import { newId } from '../../domain/ids.js';
import type { Claim, UploadRecord, UploadStore } from '../../jobs/enrichment/upload-store.js';
import type { Services } from '../types.js';
import { countRows } from './estimate.js';
import { checkedMapping, storedSheet } from './sheet.js';

/**
 * Starts the run of an upload with the user's mapping: claims the upload once (a second start answers 409
 * upload.submitted naming the run), then creates the `enrichment_run` job and its contact credit hold in one
 * store step, holding up to one credit per row that can match. No credit left at all answers the store's 402
 * and gives the claim back, so the page can start again later. A claim left by a start that crashed before creating
 * its run is taken over after a minute (UploadStore.get, ORPHANED_CLAIM_MS). The run reads a copy of the sheet taken
 * once claimed (UploadStore.snapshotSheet), so a file uploaded during the start does not change it.
 */
export async function startRun(
  services: Services,
  uploads: UploadStore,
  upload: UploadRecord,
  account: Account,
  rawMapping: unknown,
): Promise<{ run_id: string }> {
  if (account.status === 'suspended')
    throw new AppError(
      'account.suspended',
      'The account is suspended; spending calls are refused until a payment succeeds.',
    );
  if (upload.run_id) throw submitted(upload.run_id);
  if (!upload.file)
    throw new AppError('upload.no_file', 'No file was uploaded yet.', {
      hint: 'Upload a CSV file or a sheet link first.',
    });
  // The mapping is checked before claiming, so a bad one claims nothing.
  const read = await uploads.readSheet(upload.id);
  const before = storedSheet(read);
  checkedMapping(before.headers, rawMapping);
  const claim = await claimUpload(uploads, upload, account.id);
  const runId = claim.runId;
  try {
    // The run's own copy of the sheet, taken once claimed, is what it reads and what is counted here: a file that was
    // uploaded while this start read the sheet (its check came before the claim) cannot change the run.
    const text = await uploads.snapshotSheet(upload.id);
    const sheet = text === read ? before : storedSheet(text);
    const m = checkedMapping(sheet.headers, rawMapping);
    const counts = countRows(sheet, m, services.config.networkHost);
    const now = services.clock.now();
    await services.jobs.enqueue({
      id: runId,
      accountId: account.id,
      kind: 'enrichment_run',
      payload: (hold) => ({
        uploadId: upload.id,
        fileName: upload.file?.name ?? '',
        mapping: m.mapping,
        rows: counts.rows,
        canMatch: counts.can,
        held: hold?.amount ?? 0,
      }),
      ...(counts.can > 0
        ? {
            hold: {
              kind: 'contact' as const,
              category: 'enrich' as const,
              amount: counts.can,
              mode: 'up_to' as const,
              minimum: 1,
            },
          }
        : {}),
      now,
    });
  } catch (e) {
    // The run exists all the same (the store wrote the job and its answer was lost): the claim stays, and this start
    // answers as a second one does. A store that cannot say keeps the claim too (a run may exist); if none does, the
    // claim is an orphan's after ORPHANED_CLAIM_MS and the next start creates the run.
    const exists = await services.state.getJob(runId).then(
      (job) => job !== undefined,
      () => null,
    );
    if (exists) throw submitted(runId);
    if (exists === false) await uploads.releaseRun(upload.id, claim);
    throw e;
  }
  return { run_id: runId };
}

/**
 * The upload's claim for this start: a new run's, or a crashed start's taken over (UploadStore.get: orphaned_run; one
 * start takes it and creates that run). Another start's claim answers 409 upload.submitted naming its run; a claim
 * given back meanwhile (that start failed) is tried again, a few times.
 */
async function claimUpload(uploads: UploadStore, first: UploadRecord, accountId: string): Promise<Claim> {
  let upload = first;
  for (let attempt = 1; ; attempt++) {
    const claim = upload.orphaned_run
      ? await uploads.takeOverClaim(upload.id, upload.orphaned_run)
      : await uploads.claimRun(upload.id, newId('enrichmentRun'));
    if (claim) return claim;
    const again = await uploads.get(upload.id, accountId);
    // A claim taken over may still read as an orphan's for a moment: its run is the one being created.
    const holder = again?.run_id ?? again?.orphaned_run ?? null;
    if (!again || holder !== null || attempt === CLAIM_ATTEMPTS) throw submitted(holder);
    upload = again;
  }
}

const CLAIM_ATTEMPTS = 3;

function submitted(runId: string | null): AppError {
  return new AppError('upload.submitted', 'This upload was already started.', {
    hint: 'Follow the run with check_enrichment_status; a new file needs a new upload link.',
    ...(runId ? { details: { run_id: runId } } : {}),
  });
}
