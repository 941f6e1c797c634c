import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { uploadSheetFile } from '../../src/jobs/enrichment/files.js';
import { parseCsv } from '../helpers/csv.js';
import { mcpTools } from '../helpers/mcp-tools.js';
import { allRows, has } from '../helpers/rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually, uploadPageClient } from '../helpers/upload-page.js';

/**
 * A file uploaded while a start was under way (the page checks for a started run before it saves, the start reads
 * the sheet before it claims) replaced the sheet the run then read: a run counted and held for one file processed
 * another. The run now reads a copy of the sheet taken once its start claimed the upload. Here the run is queued by
 * an app that runs no jobs, the upload's sheet is then replaced on disk as that late save would, and a second app on
 * the same data dir runs the job.
 */

const dir = mkdtempSync(join(tmpdir(), 'cds-upload-copy-'));
const apps: TestApp[] = [];
const clients: Client[] = [];

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  for (const a of apps) await a.close();
  rmSync(dir, { recursive: true, force: true });
});

it('a started run reads the sheet as it was when the start claimed the upload, not a file saved after', async () => {
  const first = await startTestApp({ dataDir: dir, contacts: 400, companies: 60, seed: 9, env: { CDS_WORKERS: '0' } });
  apps.push(first);
  const emails = (await allRows(first, 'contacts'))
    .map((r) => r.work_email)
    .filter(has)
    .slice(0, 8);
  const counted = emails.slice(0, 5);
  const { apiKey } = await first.createAccount('pro');
  const call = await mcpTools(first, apiKey, clients);
  const { upload_id, upload_url } = await call('create_csv_enrichment_upload_link');
  const page = uploadPageClient(upload_url);
  const up = await page.file(`Work email\r\n${counted.join('\r\n')}\r\n`);
  expect(up.status).toBe(200);
  const started = await page.post('start', { mapping: up.body.mapping });
  expect(started.status).toBe(200);
  const runId = started.body.run_id as string;
  expect((await call('check_enrichment_status', { run_id: runId })).status).toBe('queued');

  // The late save of another file: three other people.
  writeFileSync(
    uploadSheetFile(first.services.config.filesDir, upload_id),
    `Work email\r\n${emails.slice(5).join('\r\n')}\r\n`,
  );
  await first.close();
  apps.pop();

  const second = await startTestApp({ dataDir: dir, noSeed: true });
  apps.push(second);
  const again = await mcpTools(second, apiKey, clients);
  const done = await eventually(async () => {
    const s = await again('check_enrichment_status', { run_id: runId });
    return s?.status === 'completed' ? s : undefined;
  });
  expect([done.rows, done.matched_rows, done.credits_charged]).toEqual([5, 5, 5]);
  const { url } = await again('get_enrichment_result', { run_id: runId });
  const [header, ...rows] = parseCsv(await (await fetch(url)).text());
  expect(header![0]).toBe('Work email');
  expect(rows.map((r) => r[0])).toEqual(counted);
});
