import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { AppError } from '../../src/domain/errors/index.js';
import { newId } from '../../src/domain/ids.js';
import { uploadRunFile } from '../../src/jobs/enrichment/files.js';
import { UploadStore } from '../../src/jobs/enrichment/upload-store.js';
import { uploadStore } from '../../src/operations/enrichment-upload/run-view.js';
import { startRun } from '../../src/operations/enrichment-upload/start-run.js';
import { mcpTools, type ToolCall } from '../helpers/mcp-tools.js';
import { allRows, has } from '../helpers/rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually, uploadPageClient } from '../helpers/upload-page.js';

/**
 * A start claims the upload (its `.run` marker) and then creates the run's job. A process that stopped between the
 * two left the upload "submitted" with a run that never existed, for good. Such a claim, a minute old and without
 * its job, now reads as not started, and the next start creates the claimed run (one start only, if two race).
 */

let app: TestApp;
let emails: string[];
const clients: Client[] = [];

beforeAll(async () => {
  app = await startTestApp({ contacts: 400, companies: 60, seed: 9 });
  emails = (await allRows(app, 'contacts'))
    .map((r) => r.work_email)
    .filter(has)
    .slice(0, 5);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await app.close();
});

/** An upload with a file, and its run claimed by a start that stopped before creating the run `seconds` ago. */
async function crashedStart(call: ToolCall, seconds: number) {
  const { upload_id, upload_url } = await call('create_csv_enrichment_upload_link');
  const page = uploadPageClient(upload_url);
  const up = await page.file(`Work email\r\n${emails.join('\r\n')}\r\n`);
  expect(up.status).toBe(200);
  const runId = newId('enrichmentRun');
  const marker = uploadRunFile(join(app.dataDir, 'files'), upload_id);
  writeFileSync(marker, runId);
  const at = new Date(Date.now() - seconds * 1000);
  utimesSync(marker, at, at);
  return { upload_id, page, mapping: up.body.mapping, runId };
}

describe('an upload claimed by a start that crashed before creating its run', () => {
  it('within the minute a start may still be creating the run: the upload stays submitted', async () => {
    const call = await mcpTools(app, (await app.createAccount('pro')).apiKey, clients);
    const { upload_id, page, mapping, runId } = await crashedStart(call, 5);
    expect(await call('check_enrichment_upload', { upload_id })).toMatchObject({ submitted: true, run_id: runId });
    const again = await page.post('start', { mapping });
    expect([again.status, again.body.error?.code]).toEqual([409, 'upload.submitted']);
  });

  it('after a minute it reads as not started, and the next start creates the claimed run, which completes', async () => {
    const call = await mcpTools(app, (await app.createAccount('pro')).apiKey, clients);
    const { upload_id, page, mapping, runId } = await crashedStart(call, 120);
    expect(await call('check_enrichment_upload', { upload_id })).toMatchObject({
      status: 'uploaded',
      submitted: false,
      run_id: null,
    });
    expect((await page.get('state')).body.run).toBeNull();
    const started = await page.post('start', { mapping });
    expect(started.status).toBe(200);
    expect(started.body.run_id).toBe(runId);
    const done = await eventually(async () => {
      const s = await call('check_enrichment_status', { run_id: runId });
      return s?.status === 'completed' ? s : undefined;
    });
    expect(done.matched_rows).toBe(emails.length);
    expect(await call('check_enrichment_upload', { upload_id })).toMatchObject({ submitted: true, run_id: runId });
    const twice = await page.post('start', { mapping });
    expect([twice.status, twice.body.error?.code]).toEqual([409, 'upload.submitted']);
  });

  it('two starts that both read the crashed claim: the second to create the run answers upload.submitted, claim kept', async () => {
    const { apiKey, accountId } = await app.createAccount('pro');
    const call = await mcpTools(app, apiKey, clients);
    const { upload_id, mapping, runId } = await crashedStart(call, 120);
    const uploads = uploadStore(app.services);
    const account = (await app.services.state.getAccount(accountId))!;
    // Both read the upload before either creates the run: both see the crashed claim, and only one may take it over.
    const [a, b] = await Promise.all([uploads.get(upload_id, accountId), uploads.get(upload_id, accountId)]);
    expect([a?.orphaned_run, b?.orphaned_run]).toEqual([runId, runId]);
    const outcomes = await Promise.allSettled([
      startRun(app.services, uploads, a!, account, mapping),
      startRun(app.services, uploads, b!, account, mapping),
    ]);
    expect(
      outcomes.filter((o) => o.status === 'fulfilled').map((o) => (o as PromiseFulfilledResult<any>).value),
    ).toEqual([{ run_id: runId }]);
    const lost = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect((lost.reason as AppError).code).toBe('upload.submitted');
    // The loser kept the winner's claim: the upload reads as started, with that run.
    expect(await call('check_enrichment_upload', { upload_id })).toMatchObject({ submitted: true, run_id: runId });
  });

  it('eight starts that all read the crashed claim: one takes it over and creates the run, seven answer upload.submitted', async () => {
    const { apiKey, accountId } = await app.createAccount('pro');
    const call = await mcpTools(app, apiKey, clients);
    const { upload_id, mapping, runId } = await crashedStart(call, 120);
    const uploads = uploadStore(app.services);
    const account = (await app.services.state.getAccount(accountId))!;
    const read = await Promise.all(Array.from({ length: 8 }, () => uploads.get(upload_id, accountId)));
    expect(read.map((r) => r?.orphaned_run)).toEqual(Array(8).fill(runId));
    const outcomes = await Promise.allSettled(read.map((r) => startRun(app.services, uploads, r!, account, mapping)));
    expect(outcomes.filter((o) => o.status === 'fulfilled').map((o) => o.value)).toEqual([{ run_id: runId }]);
    const lost = outcomes.filter((o) => o.status === 'rejected').map((o) => o.reason as AppError);
    expect(lost.map((e) => [e.code, e.details?.run_id])).toEqual(Array(7).fill(['upload.submitted', runId]));
    expect(await call('check_enrichment_upload', { upload_id })).toMatchObject({ submitted: true, run_id: runId });
    const done = await eventually(async () => {
      const s = await call('check_enrichment_status', { run_id: runId });
      return s?.status === 'completed' ? s : undefined;
    });
    expect(done.matched_rows).toBe(emails.length);
  });

  it('a claim taken over is dated anew: it reads as a start under way, and cannot be taken over again', async () => {
    const { apiKey, accountId } = await app.createAccount('pro');
    const call = await mcpTools(app, apiKey, clients);
    const { upload_id, runId } = await crashedStart(call, 120);
    const uploads = uploadStore(app.services);
    const took = await Promise.all([1, 2, 3].map(() => uploads.takeOverClaim(upload_id, runId)));
    expect(took.filter(Boolean)).toHaveLength(1);
    expect(await uploads.get(upload_id, accountId)).toMatchObject({ run_id: runId });
    expect((await uploads.get(upload_id, accountId))?.orphaned_run).toBeUndefined();
    expect(await uploads.takeOverClaim(upload_id, runId)).toBeNull();
    expect(await uploads.takeOverClaim(upload_id, newId('enrichmentRun'))).toBeNull();
  });

  it('a start that stalled past the minute gives back only its own claim, not the one another start took over', async () => {
    const { apiKey, accountId } = await app.createAccount('pro');
    const call = await mcpTools(app, apiKey, clients);
    const { upload_id, runId } = await crashedStart(call, 120);
    const uploads = uploadStore(app.services);
    const marker = uploadRunFile(join(app.dataDir, 'files'), upload_id);
    const stalled = (await uploads.takeOverClaim(upload_id, runId))!;
    expect(stalled).toMatchObject({ runId });
    // The stalled start's claim ages past the minute and a second start takes it over.
    const old = new Date(Date.now() - 90_000);
    utimesSync(marker, old, old);
    const taken = (await uploads.takeOverClaim(upload_id, runId))!;
    expect(taken.at).not.toBe(stalled.at);
    await uploads.releaseRun(upload_id, stalled);
    expect(readFileSync(marker, 'utf8')).toBe(runId);
    expect((await uploads.get(upload_id, accountId))?.run_id).toBe(runId);
    await uploads.releaseRun(upload_id, taken);
    expect(existsSync(marker)).toBe(false);
  });

  it('claims are exclusive and whole: one of many starts claims a new upload, its marker holding the run id', async () => {
    const { apiKey, accountId } = await app.createAccount('pro');
    const call = await mcpTools(app, apiKey, clients);
    const { upload_id } = await call('create_csv_enrichment_upload_link');
    const uploads = uploadStore(app.services);
    const ids = Array.from({ length: 6 }, () => newId('enrichmentRun'));
    const claims = await Promise.all(ids.map((id) => uploads.claimRun(upload_id, id)));
    const won = claims.filter((c) => c !== null);
    expect(won).toHaveLength(1);
    expect(readFileSync(uploadRunFile(join(app.dataDir, 'files'), upload_id), 'utf8')).toBe(won[0]!.runId);
    expect((await uploads.get(upload_id, accountId))?.run_id).toBe(won[0]!.runId);
    // No temp file is left beside the marker.
    expect(readdirSync(join(app.dataDir, 'files', 'uploads')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('copies of the sheet taken at once all complete, each whole', async () => {
    const call = await mcpTools(app, (await app.createAccount('pro')).apiKey, clients);
    const { upload_id } = await crashedStart(call, 120);
    const uploads = uploadStore(app.services);
    const texts = await Promise.all(Array.from({ length: 8 }, () => uploads.snapshotSheet(upload_id)));
    expect(new Set(texts).size).toBe(1);
    expect(await uploads.readRunSheet(upload_id)).toBe(texts[0]);
    expect(texts[0]).toContain(emails[0]);
  });

  it('two starts racing over the same crashed claim: one creates the run, the other answers upload.submitted', async () => {
    const call = await mcpTools(app, (await app.createAccount('pro')).apiKey, clients);
    const { page, mapping, runId } = await crashedStart(call, 120);
    const both = await Promise.all([page.post('start', { mapping }), page.post('start', { mapping })]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.status === 200)!.body.run_id).toBe(runId);
    expect(both.find((r) => r.status === 409)!.body).toMatchObject({
      error: { code: 'upload.submitted', details: { run_id: runId } },
    });
  });
});

describe('a start whose state store fails while it creates the run', () => {
  it('keeps the claim (a run may exist), so the upload reads as started rather than free for a second run', async () => {
    const own = await startTestApp({ contacts: 200, companies: 30, seed: 4 });
    const ownClients: Client[] = [];
    try {
      const { apiKey, accountId } = await own.createAccount('pro');
      const call = await mcpTools(own, apiKey, ownClients);
      const { upload_id, upload_url } = await call('create_csv_enrichment_upload_link');
      const up = await uploadPageClient(upload_url).file('Work email\r\nada@example.com\r\n');
      expect(up.status).toBe(200);
      const uploads = uploadStore(own.services);
      const upload = (await uploads.get(upload_id, accountId))!;
      const account = (await own.services.state.getAccount(accountId))!;
      await Promise.all(ownClients.map((c) => c.close()));
      ownClients.length = 0;
      // The store goes away between the claim and the run's creation: creating the job and looking it up both fail.
      await own.services.state.close();
      await expect(startRun(own.services, uploads, upload, account, up.body.mapping)).rejects.toThrow();
      const marker = uploadRunFile(join(own.dataDir, 'files'), upload_id);
      expect(existsSync(marker)).toBe(true);
      const read = await new UploadStore(join(own.dataDir, 'files')).get(upload_id, accountId);
      expect(read?.run_id).toBe(readFileSync(marker, 'utf8'));
    } finally {
      await Promise.all(ownClients.map((c) => c.close()));
      await own.close().catch(() => undefined);
    }
  });
});
