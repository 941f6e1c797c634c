import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type Browser, chromium } from 'playwright-core';
import { repoRoot } from '../helpers/paths.js';
import { allRows, has } from '../helpers/rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The upload page in a real browser (Debian's Chromium through playwright-core; .ci/run installs it): open the
 * link, choose a file, see the preview and the guessed mapping, change one mapping, see the estimate, start, watch
 * the progress reach completed. Screenshots go to test-output/browser/.
 */
const CHROMIUM = '/usr/bin/chromium';

/** Runs in the page (its own scope): an element's text, or one attribute. */
declare function text(selector: string, attribute?: string): string | null | undefined;
const IN_PAGE = `window.text = (s, a) => { const e = document.querySelector(s); return a ? e?.getAttribute(a) : e?.textContent; };`;
const present = existsSync(CHROMIUM);
if (!present) console.log(`SKIPPED: the upload page browser test needs ${CHROMIUM} (apt-get install chromium)`);
const maybe = present ? describe : describe.skip;

const out = join(repoRoot(), 'test-output', 'browser');
let app: TestApp;
let browser: Browser;
let client: Client;
let accountId: string;

maybe('upload page in Chromium', () => {
  beforeAll(async () => {
    mkdirSync(out, { recursive: true });
    app = await startTestApp({
      contacts: 800,
      companies: 120,
      seed: 9,
      env: { CDS_ENRICHMENT_BATCH_DELAY_MS: '1000' },
    });
    const made = await app.createAccount('pro');
    const apiKey = made.apiKey;
    accountId = made.accountId;
    client = new Client({ name: 'browser-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
        requestInit: { headers: { 'X-API-Key': apiKey } },
      }),
    );
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await app?.close();
  });

  it('upload, preview, guessed mapping, one change, estimate, start, progress to completed', async () => {
    const rows = (await allRows(app, 'contacts')).filter((r) => has(r.work_email)).slice(0, 240);
    const csv = [
      'Name,Email address,Mobile,Company,Website',
      ...rows.map((r, i) =>
        [
          r.name,
          i % 6 === 0 ? '' : r.work_email,
          i % 6 === 0 ? (r.mobile_phone ?? '') : '',
          r.company,
          r.company_domain ?? '',
        ]
          .map((c) => `"${String(c ?? '').replace(/"/g, '""')}"`)
          .join(','),
      ),
    ].join('\r\n');
    const file = join(out, 'people.csv');
    writeFileSync(file, csv);
    const link = ((await client.callTool({ name: 'create_csv_enrichment_upload_link', arguments: {} })) as any)
      .structuredContent.upload_url as string;

    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const outside: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(app.url)) outside.push(req.url());
    });
    await page.addInitScript({ content: IN_PAGE });
    await page.goto(link);
    await page.waitForSelector('#drop');
    // A bad file first: a clear message on the page, nothing else changes.
    await page.setInputFiles('#file-input', {
      name: 'people.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]),
    });
    await page.waitForSelector('#error:not([hidden])');
    expect(await page.locator('#error').textContent()).toMatch(/Excel workbook .* not CSV/);
    expect(await page.locator('#step-map').isHidden()).toBe(true);
    await page.screenshot({ path: join(out, '0-bad-file.png'), fullPage: true });
    await page.setInputFiles('#file-input', file);
    await page.waitForSelector('#preview tr:nth-child(11)');
    expect(await page.locator('#error').isHidden()).toBe(true);
    expect(await page.locator('#preview tr').count()).toBe(11);
    expect(await page.locator('#preview th').allTextContents()).toEqual([
      'Name',
      'Email address',
      'Mobile',
      'Company',
      'Website',
    ]);
    const value = (field: string) => page.locator(`#map-${field}`).inputValue();
    expect(await value('email')).toBe('Email address');
    expect(await value('phone')).toBe('Mobile');
    expect(await value('full_name')).toBe('Name');
    expect(await value('company_name')).toBe('Company');
    expect(await value('domain')).toBe('Website');
    const before = await page.locator('#estimate').getAttribute('data-can-match');
    await page.screenshot({ path: join(out, '1-preview.png'), fullPage: true });

    // One change: the phone column is unmapped, and the estimate follows: the rows that had only a phone drop out.
    expect(Number(before)).toBe(rows.filter((r, i) => i % 6 !== 0 || has(r.mobile_phone)).length);
    const expected = rows.filter((_, i) => i % 6 !== 0).length;
    await page.selectOption('#map-phone', '');
    await page.waitForFunction((n) => text('#estimate', 'data-can-match') === String(n), expected);
    const estimate = await page.locator('#estimate').textContent();
    expect(estimate).toMatch(/rows can match: at most [\d,]+ contact credits/);
    expect(estimate).toContain('Credits left: 10,000.');
    const canMatch = Number(await page.locator('#estimate').getAttribute('data-can-match'));
    expect(canMatch).toBe(expected);
    await page.screenshot({ path: join(out, '2-mapping-estimate.png'), fullPage: true });

    await page.click('#start');
    await page.waitForSelector('#step-run:not([hidden])');
    const seen = new Set<string>();
    await page.waitForFunction(() => text('#run-status') === 'running', null, {
      timeout: 20_000,
    });
    seen.add((await page.locator('#run-status').textContent()) ?? '');
    const midway = Number(await page.locator('#progress').getAttribute('value'));
    await page.screenshot({ path: join(out, '3-running.png'), fullPage: true });
    await page.waitForFunction(() => text('#run-status') === 'completed', null, {
      timeout: 30_000,
    });
    expect(seen.has('running')).toBe(true);
    expect(midway).toBeLessThan(100);
    expect(await page.locator('#progress').evaluate((p) => (p as unknown as { value: number }).value)).toBe(100);
    expect(await page.locator('#run-counts').textContent()).toMatch(
      new RegExp(`^${rows.length} of ${rows.length} rows processed, (\\d+) matched, \\1 contact credits charged\\.`),
    );
    await page.screenshot({ path: join(out, '4-completed.png'), fullPage: true });
    expect(outside).toEqual([]);

    // The run used the mapping as changed on the page.
    const [job] = await app.services.state.listJobs(accountId, 'enrichment_run');
    expect(job?.payload).toMatchObject({ mapping: { email: 'Email address', phone: null, domain: 'Website' } });
    expect(job?.result.matched_rows).toBeGreaterThan(canMatch / 2);
  }, 90_000);
});
