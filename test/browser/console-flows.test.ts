import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seedRelease } from '../../loaders/seed.js';
import type { DuckDBEngine } from '../../src/engine/duckdb/duckdb-engine.js';
import { allRows, has } from '../helpers/rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { describeWithChromium, launchChromium } from './chromium.js';

/**
 * The console a person would choose (issue 40), in real Chromium over the real app: the audience builder in plain
 * words (groups, labels, values by popularity, includes beside excludes, month selects, ranges, chips, a count that
 * stays in view on a phone), results with chosen columns and a row drawer, each page quoted first; saving, reopening
 * and counting an audience across a release switch; companies; one-contact enrichment; a CSV uploaded from the
 * console and its result downloaded; a failed request found in the log by its request id; every page at 1280 and
 * 390 px without sideways scrolling or console errors. Screenshots: test-output/console-flows/.
 */
interface El {
  id: string;
  type: string;
  textContent: string | null;
  labels: { length: number } | null;
  getAttribute(n: string): string | null;
  getBoundingClientRect(): { top: number; bottom: number; left: number; right: number; width: number };
}
declare const document: {
  documentElement: { scrollWidth: number };
  querySelector(s: string): El | null;
  querySelectorAll(s: string): Iterable<El>;
};
declare const window: { innerWidth: number; innerHeight: number; scrollTo(x: number, y: number): void };

const SHOTS = join(process.cwd(), 'test-output', 'console-flows');
const num = (s: string | null | undefined) => Number((s ?? '').replace(/[^0-9]/g, ''));

describeWithChromium('the console a person would choose (issue 40)', () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let apiKey: string;
  const consoleErrors: string[] = [];

  const ready = async (p: Page = page) => {
    await p.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
  };
  const open = async (path: string) => {
    await page.goto(`${app.url}${path}`);
    await ready();
  };
  /**
   * The API as a script calls it. A read (GET, or a free count) is sent again once when the connection was reset: on
   * two loaded cores the client can reuse a keep-alive socket in the moment the server closes it (ECONNRESET).
   */
  const api = async (method: string, path: string, body?: unknown) => {
    const send = () => app.request(method, path, { key: apiKey, ...(body !== undefined ? { body } : {}) });
    try {
      return await send();
    } catch (e) {
      const retryable = method === 'GET' || path === '/v1/contacts/count';
      if (!retryable || !String((e as Error & { cause?: unknown }).cause).includes('ECONNRESET')) throw e;
      return send();
    }
  };
  const count = async (filter: Record<string, unknown>) =>
    (await api('POST', '/v1/contacts/count', { filter })).body.data.count as number;
  const liveCount = async (n: number) =>
    page.waitForFunction(
      (want) => document.querySelector('[data-testid="live-count"]')?.getAttribute('data-count') === String(want),
      n,
      { timeout: 10_000 },
    );
  const mcpFilter = async () => JSON.parse((await page.getByTestId('mcp-call').textContent()) ?? '{}').arguments.filter;
  /** Width checks and screenshots at a laptop and a phone width. */
  const fits = async (name: string, p: Page = page, fullPage = true) => {
    for (const width of [1280, 390]) {
      await p.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
      const { scroll, inner } = await p.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        inner: window.innerWidth,
      }));
      expect({ page: name, width, scroll: scroll <= inner }).toEqual({ page: name, width, scroll: true });
      // The console's navigation keeps the current page's link in view (one sideways row on a phone).
      // The row re-centres on the resize, which the page handles after the viewport change: waited for (2 s at most).
      const inView = () => {
        const nav = document.querySelector('.top nav')?.getBoundingClientRect();
        const a = document.querySelector('.top nav [aria-current="page"]')?.getBoundingClientRect();
        if (!nav || !a) return 'no navigation';
        return a.left >= nav.left - 1 && a.right <= nav.right + 1 ? 'inside' : false;
      };
      await p.waitForFunction(inView, undefined, { timeout: 2000 }).catch(() => undefined);
      const link = await p.evaluate(inView);
      expect({ page: name, width, inside: link !== false }).toEqual({ page: name, width, inside: true });
      await p.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage });
    }
    await p.setViewportSize({ width: 1280, height: 900 });
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await startTestApp({ contacts: 2000, companies: 300, env: { CDS_ENRICHMENT_BATCH_DELAY_MS: '0' } });
    apiKey = (await app.createAccount('pro', { name: 'Console flows' })).apiKey;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    page.on('pageerror', (e) => consoleErrors.push(`pageerror ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(`${page.url()}: ${m.text()}`);
    });
    await page.goto(`${app.url}/app/sign-in`);
    await page.getByLabel('API key').fill(apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${app.url}/app`);
    await ready();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('builds an audience from labelled filters in groups: values by popularity, month selects, ranges, chips', async () => {
    await open('/app/audience');
    const schema = (await api('GET', '/v1/contacts/schema')).body.data;
    // Every filter key has its control, in one of the six groups, under a label in words (never the API key).
    const keys = await page
      .locator('form.filters [data-key]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));
    for (const k of schema.filter_keys) expect(keys).toContain(k.key);
    expect(await page.locator('form.filters legend').allTextContents()).toEqual([
      'Person',
      'Job',
      'Company',
      'Contact data',
      'Signals',
      'Exclusions',
    ]);
    const labels = await page
      .locator('form.filters label:not(.sr-only), form.filters .label')
      .evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()));
    expect(labels.length).toBeGreaterThan(25);
    const keyNames = new Set(schema.filter_keys.map((k: { key: string }) => k.key));
    expect(labels.filter((l) => l.includes('_') || keyNames.has(l))).toEqual([]);
    expect(labels).toContain('Country');
    expect(labels).toContain('Has a work email');
    expect(labels).toContain('Latest funding round date');
    // No browser month input anywhere (it renders as `--------- ----`): a month select and a year select instead.
    expect(await page.locator('input[type="month"]').count()).toBe(0);
    const month = page.locator('.range-field[data-key="last_round_after"]');
    expect(await month.locator('.month-picker').count()).toBe(2);
    expect(await month.locator('select').count()).toBe(4);

    // Includes and excludes side by side on a laptop.
    const inc = await page.locator('details[data-key="countries"]').boundingBox();
    const exc = await page.locator('details[data-key="exclude_countries"]').boundingBox();
    expect(Math.abs(inc!.y - exc!.y)).toBeLessThan(2);
    expect(exc!.x).toBeGreaterThan(inc!.x + inc!.width - 1);

    // Country values by how many contacts hold them: the United States first, as the values route's sort=count says.
    const byCount = (await api('GET', '/v1/contacts/schema/country/values?sort=count&limit=5')).body.data.values.map(
      (v: { value: string }) => v.value,
    );
    expect(byCount[0]).toBe('us');
    await page.locator('details[data-key="countries"] summary').click();
    const firstShown = page.locator('[data-testid="values-countries"] input[type="checkbox"]');
    await firstShown.first().waitFor();
    expect((await firstShown.evaluateAll((els) => els.map((e) => e.getAttribute('value')))).slice(0, 5)).toEqual(
      byCount,
    );
    expect(await page.locator('[data-testid="values-countries"] label').first().textContent()).toMatch(
      /^United States \d[\d,]* · \d+%$/,
    );
    await page.getByLabel(/^United States/).check();
    await liveCount(await count({ countries: ['us'] }));

    await page.locator('details[data-key="seniority"] summary').click();
    await page.locator('[data-testid="values-seniority"] input[value="senior_ic"]').check();
    await page.getByLabel('Has a work email').selectOption('true');
    await page.getByLabel('Latest funding round date, after: month').selectOption({ label: 'Mar' });
    await page.getByLabel('Latest funding round date, after: year').selectOption('2020');
    await page.locator('#f-employee_count_min').fill('10');
    const full = {
      countries: ['us'],
      seniority: ['senior_ic'],
      has_work_email: true,
      last_round_after: '2020-03',
      employee_count_min: 10,
    };
    await liveCount(await count(full));
    expect(await mcpFilter()).toEqual(full);
    const chips = await page.locator('[data-testid="chips"] .chip').allTextContents();
    expect(chips).toEqual(
      expect.arrayContaining([
        'Country: United States ×',
        'Has a work email: yes ×',
        'Latest funding round date: after Mar 2020 ×',
        'Employees: at least 10 ×',
      ]),
    );
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: join(SHOTS, 'builder-filters-1280.png'), fullPage: false });

    // Removing a chip removes the filter and clears its control.
    await page.getByRole('button', { name: 'Remove Latest funding round date: after Mar 2020' }).click();
    await page.getByRole('button', { name: 'Remove Employees: at least 10' }).click();
    const three = { countries: ['us'], seniority: ['senior_ic'], has_work_email: true };
    await liveCount(await count(three));
    expect(await mcpFilter()).toEqual(three);
    expect(await page.getByLabel('Latest funding round date, after: month').inputValue()).toBe('');
    expect(await page.locator('#f-employee_count_min').inputValue()).toBe('');
    // A list value's chip unticks its box; ticking it again brings the chip back.
    const senior = page.locator('[data-testid="values-seniority"] input[value="senior_ic"]');
    await page.getByRole('button', { name: 'Remove Seniority: Senior individual contributor' }).click();
    expect(await senior.isChecked()).toBe(false);
    const two = { countries: ['us'], has_work_email: true };
    await liveCount(await count(two));
    expect(await mcpFilter()).toEqual(two);
    await senior.check();

    // On a phone the count stays in view wherever the page is scrolled.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const y of [600, 2000, 100_000]) {
      await page.evaluate((to) => window.scrollTo(0, to), y);
      await page.waitForTimeout(50);
      const box = await page.evaluate(() => {
        const r = document.querySelector('[data-testid="live-count"]')!.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, h: window.innerHeight };
      });
      expect(box.top).toBeGreaterThanOrEqual(0);
      expect(box.bottom).toBeLessThanOrEqual(box.h);
    }
    await page.screenshot({ path: join(SHOTS, 'builder-sticky-count-390.png'), fullPage: false });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('previews chosen columns by label, each page quoted before it is paid, and opens a row in a drawer', async () => {
    // The builder keeps its filter from the previous test (same page).
    const filter = await mcpFilter();
    const chooser = page.getByTestId('column-chooser');
    await chooser.locator('summary').click();
    await chooser.getByLabel('Email Status').check();
    await chooser.getByLabel('Seniority', { exact: true }).uncheck();
    await chooser.locator('summary').click();
    const before = (await api('GET', '/v1/credits')).body.data.contact.day.remaining as number;
    await page.getByRole('button', { name: 'Show rows…' }).click();
    const quote = page.getByTestId('quote');
    await quote.waitFor();
    expect(await quote.getAttribute('data-credits')).toBe('10');
    expect(await quote.textContent()).toMatch(/costs up to 10 contact credits/);
    // Nothing is spent by the quote.
    expect((await api('GET', '/v1/credits')).body.data.contact.day.remaining).toBe(before);
    await page.getByTestId('quote-confirm').click();
    await page.getByTestId('result-rows').waitFor();
    const headers = await page.locator('[data-testid="result-rows"] thead th[data-column]').allTextContents();
    expect(headers).toEqual(['Full Name', 'Job Title', 'Company Name', 'Work Email', 'Country', 'Email Status']);
    const rows = page.locator('[data-testid="result-rows"] tbody tr');
    expect(await rows.count()).toBe(10);
    expect(await page.getByTestId('spent').getAttribute('data-spent')).toBe('10');
    expect((await api('GET', '/v1/credits')).body.data.contact.day.remaining).toBe(before - 10);
    // The same first page as the API gives.
    const first = (await api('POST', '/v1/contacts/search', { filter, limit: 10, columns: ['*'] })).body.data;
    const emails = await page
      .locator('[data-testid="result-rows"] tbody td[data-column="work_email"]')
      .allTextContents();
    expect(emails).toEqual(first.map((r: { work_email: string | null }) => r.work_email ?? '—'));
    await page.screenshot({ path: join(SHOTS, 'results-1280.png'), fullPage: true });

    // A row's every column, by label, in a drawer.
    await rows.first().getByRole('button').click();
    const drawer = page.getByTestId('row-detail');
    await drawer.waitFor();
    expect(await drawer.locator('h2').textContent()).toBe(first[0].name);
    expect(await drawer.locator('dd[data-column="work_email"]').textContent()).toBe(first[0].work_email ?? '—');
    expect(await drawer.locator('dt').allTextContents()).toEqual(
      expect.arrayContaining(['Full Name', 'Location', 'Skills']),
    );
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SHOTS, 'row-drawer-390.png') });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    // The next page by cursor, quoted again.
    await page.getByRole('button', { name: 'Next page…' }).click();
    await page.getByTestId('quote-confirm').click();
    await page.waitForFunction(() =>
      /^Page 2/.test(document.querySelector('[data-testid="page-no"]')?.textContent ?? ''),
    );
    const second = await page
      .locator('[data-testid="result-rows"] tbody td[data-column="work_email"]')
      .allTextContents();
    expect(second.some((e) => emails.includes(e) && e !== '—')).toBe(false);
  });

  let audienceId = '';
  it('saves the audience, reopens it, and draws its count on two releases', async () => {
    const filter = await mcpFilter();
    await page.getByRole('button', { name: 'Save audience…' }).click();
    await page.getByLabel('Name', { exact: true }).fill('US senior ICs with email');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const saved = page.getByTestId('saved');
    await saved.waitFor();
    audienceId = (await saved.getAttribute('data-id')) ?? '';
    const stored = (await api('GET', `/v1/audiences/${audienceId}`)).body.data;
    expect(stored).toMatchObject({ name: 'US senior ICs with email', filter });

    await open('/app/audiences');
    expect(await page.getByTestId('audiences').textContent()).toContain('US senior ICs with email');
    await fits('audiences');
    await page.getByRole('link', { name: 'US senior ICs with email' }).click();
    await ready();
    // The filter in words, values by their labels.
    expect(await page.getByTestId('audience-filter').textContent()).toBe(
      'Country: United States · Seniority: Senior individual contributor · Has a work email: yes',
    );
    await page.getByRole('button', { name: 'Count now (free)' }).click();
    await page.locator('.history-point').first().waitFor();
    const one = await count(filter);
    expect(await page.getByTestId('audience-count').getAttribute('data-count')).toBe(String(one));

    // A new release (more contacts), served after a refresh: the second count is a second point.
    const firstRelease = (await page.locator('.history-point').first().getAttribute('data-release')) ?? '';
    await seedRelease({
      dataDir: app.dataDir,
      contacts: 2600,
      companies: 300,
      seed: 11,
      asOf: new Date('2026-11-05T00:00:00Z'),
    });
    await (app.services.engine as DuckDBEngine).refresh();
    await page.getByRole('button', { name: 'Count now (free)' }).click();
    await page.waitForFunction(() => [...document.querySelectorAll('.history-point')].length === 2);
    const points = await page
      .locator('.history-point')
      .evaluateAll((els) =>
        els.map((e) => ({ release: e.getAttribute('data-release'), count: Number(e.getAttribute('data-count')) })),
      );
    const two = await count(filter);
    expect(points).toEqual([
      { release: firstRelease, count: one },
      { release: expect.not.stringMatching(`^${firstRelease}$`), count: two },
    ]);
    await fits('audience-history');

    // Reopened in the builder: the same filter, its chips, its count.
    await page.getByRole('link', { name: 'Open in the builder' }).click();
    await ready();
    await liveCount(two);
    expect(await mcpFilter()).toEqual(filter);
    expect(await page.locator('[data-testid="chips"] .chip').allTextContents()).toEqual(
      expect.arrayContaining([
        'Country: United States ×',
        'Seniority: Senior individual contributor ×',
        'Has a work email: yes ×',
      ]),
    );
  });

  it('searches a company, shows its contacts count and builds its audience', async () => {
    const contacts = await allRows(app, 'contacts');
    const byCompany = new Map<string, number>();
    for (const r of contacts)
      if (has(r.company_id)) byCompany.set(r.company_id, (byCompany.get(r.company_id) ?? 0) + 1);
    const companies = await allRows(app, 'companies');
    const target = companies.find((c) => (byCompany.get(c.id) ?? 0) >= 3 && has(c.name) && has(c.domain))!;
    await open('/app/companies');
    await page.getByLabel('Company name or website').fill(target.domain);
    await page.getByRole('button', { name: 'Search…' }).click();
    await page.getByTestId('quote').waitFor();
    await page.getByTestId('quote-confirm').click();
    const detail = page.locator(`[data-testid="company-detail"] [data-id="${target.id}"]`);
    await detail.waitFor();
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid="company-contacts"]')?.getAttribute('data-count') === String(n),
      await count({ company_ids: [target.id] }),
    );
    expect(Number(await page.getByTestId('company-contacts').getAttribute('data-count'))).toBe(
      byCompany.get(target.id),
    );
    await fits('companies');
    await page.getByTestId('build-audience').click();
    await ready();
    await liveCount(byCompany.get(target.id)!);
    expect(await mcpFilter()).toEqual({ company_ids: [target.id] });
    expect(await page.locator('[data-testid="chips"] .chip').allTextContents()).toEqual([
      `Company ID: ${target.name} ×`,
    ]);
  });

  it('enriches one contact from its work email, after its quote', async () => {
    const rows = await allRows(app, 'contacts');
    const person = rows.find((r) => has(r.work_email) && has(r.name))!;
    const before = (await api('GET', '/v1/credits')).body.data.contact.day.remaining as number;
    await open('/app/enrich');
    await page.getByLabel('Email, phone or profile URL').fill(person.work_email);
    await page.getByRole('button', { name: 'Find…' }).click();
    await page.getByTestId('quote').waitFor();
    expect(await page.getByTestId('quote').getAttribute('data-credits')).toBe('1');
    await page.getByTestId('quote-confirm').click();
    const card = page.getByTestId('enrich-contact');
    await card.waitFor();
    expect(await card.getAttribute('data-id')).toBe(person.id);
    expect(await card.locator('dd[data-column="work_email"]').textContent()).toBe(person.work_email);
    expect(await page.getByTestId('spent').getAttribute('data-spent')).toBe('1');
    expect((await api('GET', '/v1/credits')).body.data.contact.day.remaining).toBe(before - 1);
    // A miss is free.
    await page.getByLabel('Email, phone or profile URL').fill('nobody-at-all@nowhere-known.example');
    await page.getByRole('button', { name: 'Find…' }).click();
    await page.getByTestId('quote-confirm').click();
    await page.getByTestId('enrich-miss').waitFor();
    expect((await api('GET', '/v1/credits')).body.data.contact.day.remaining).toBe(before - 1);
  });

  it('uploads a CSV from the console and downloads the result there', async () => {
    const rows = (await allRows(app, 'contacts')).filter((r) => has(r.work_email)).slice(0, 12);
    const file = join(SHOTS, 'people.csv');
    writeFileSync(file, ['Name,Email', ...rows.map((r) => `"${r.name}",${r.work_email}`)].join('\r\n'));
    await open('/app/enrich');
    await page.getByRole('button', { name: 'New upload page' }).click();
    const link = page.getByTestId('upload-page-link');
    await link.waitFor();
    await link.click();
    await page.waitForSelector('#drop');
    await fits('upload-page');
    await page.setInputFiles('#file-input', file);
    await page.waitForSelector('#step-map:not([hidden])');
    await page.waitForSelector('#estimate[data-can-match]');
    await fits('upload-page-map');
    await page.click('#start');
    await page.waitForFunction(() => document.querySelector('#run-status')?.textContent === 'completed', null, {
      timeout: 30_000,
    });
    // The upload page's last step offers the result too.
    const onPage = page.locator('#run-download');
    await onPage.waitFor();
    expect(await onPage.getAttribute('href')).not.toBe('#');
    const [fromPage] = await Promise.all([page.waitForEvent('download'), onPage.click()]);
    const pageFile = join(SHOTS, 'result-from-upload-page.csv');
    await fromPage.saveAs(pageFile);
    expect(readFileSync(pageFile, 'utf8').trim().split(/\r?\n/)).toHaveLength(rows.length + 1);
    await fits('upload-page-done');
    await open('/app/enrich');
    const table = page.getByTestId('runs-table');
    await table.waitFor();
    expect(await table.locator('tbody tr').first().textContent()).toContain('completed');
    await table.getByTestId('get-result').first().click();
    const download = page.getByTestId('result-download');
    await download.waitFor();
    const [file2] = await Promise.all([page.waitForEvent('download'), download.click()]);
    const saved = join(SHOTS, 'result.csv');
    await file2.saveAs(saved);
    const text = readFileSync(saved, 'utf8');
    const lines = text.trim().split(/\r?\n/);
    expect(lines).toHaveLength(rows.length + 1);
    for (const r of rows) expect(text).toContain(r.work_email);
    await fits('enrich');
  }, 90_000);

  it('finds a failed request in the log by its request id', async () => {
    const bad = await api('POST', '/v1/contacts/count', { filter: { countries: ['atlantis'] } });
    expect(bad.status).toBe(400);
    const requestId = bad.headers.get('x-request-id') ?? bad.body.error?.request_id;
    expect(requestId).toBeTruthy();
    await open('/app/logs');
    await page.getByLabel('Status', { exact: true }).selectOption('4xx');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.locator(`[data-testid="log-rows"] tr[data-request-id="${requestId}"]`).waitFor({ timeout: 10_000 });
    const statuses = await page.locator('[data-testid="log-rows"] tbody td:nth-child(3)').allTextContents();
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((t) => !/^4\d\d/.test(t))).toEqual([]);
    // By route: only the count route's requests.
    await page.getByLabel('Status', { exact: true }).selectOption('');
    await page.getByLabel('Route or tool').fill('/v1/contacts/count');
    await page.getByRole('button', { name: 'Filter' }).click();
    // The 4xx list may already show only the count route (its one failed call): wait for the route's own list.
    await page.waitForFunction(() => {
      const routes = [...document.querySelectorAll('[data-testid="log-rows"] tbody td:nth-child(2)')];
      return routes.length > 1 && routes.every((e) => e.textContent === 'POST /v1/contacts/count');
    });
    expect(await page.locator('[data-testid="log-rows"] tbody tr').count()).toBeGreaterThan(1);
    await page.getByLabel('Request id').fill(requestId!);
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    const drawer = page.getByTestId('row-detail');
    await drawer.waitFor();
    expect(await drawer.textContent()).toContain('400');
    expect(await drawer.textContent()).toContain('filter.unknown_value');
    await page.keyboard.press('Escape');
    await fits('logs');
  });

  it('fits 390 px on every page (console, upload page, /docs) without console errors; the chart shows today', async () => {
    for (const path of [
      '/app',
      '/app/audience',
      '/app/audiences',
      '/app/companies',
      '/app/enrich',
      '/app/exports',
      '/app/activity',
      '/app/logs',
      '/app/integrations',
    ]) {
      await open(path);
      await fits(path === '/app' ? 'overview' : path.slice(5));
    }
    await open('/app');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(100);
    const inView = await page.evaluate(() => {
      const box = document.querySelector('[data-testid="chart-scroll"]')!.getBoundingClientRect();
      const today = document.querySelector('[data-today]')!.getBoundingClientRect();
      return { box, today };
    });
    expect(inView.today.right).toBeLessThanOrEqual(inView.box.right + 1);
    expect(inView.today.left).toBeGreaterThanOrEqual(inView.box.left - 1);
    await page.setViewportSize({ width: 1280, height: 900 });
    // The reference is long: its screenshots are of the first screen.
    await page.goto(`${app.url}/docs`);
    await fits('docs', page, false);
    expect(consoleErrors).toEqual([]);
  });

  it('says what to do next when the credits are spent', async () => {
    const small = await app.createAccount('free', { name: 'Small' });
    const credits = (await app.request('GET', '/v1/credits', { key: small.apiKey })).body.data;
    const left =
      credits.contact.kind === 'windows'
        ? Math.min(credits.contact.day.remaining, credits.contact.month.remaining)
        : credits.contact.pool.remaining;
    const spend = await app.request('POST', '/v1/contacts/search', {
      key: small.apiKey,
      body: { filter: {}, limit: Math.min(left, 1000), columns: ['id'] },
    });
    expect(spend.status).toBe(200);
    const other = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const p = await other.newPage();
      await p.goto(`${app.url}/app/sign-in`);
      await p.getByLabel('API key').fill(small.apiKey);
      await p.getByRole('button', { name: 'Sign in' }).click();
      await p.waitForURL(`${app.url}/app`);
      await ready(p);
      const notice = p.getByTestId('credits-exhausted');
      await notice.waitFor();
      expect(await notice.textContent()).toMatch(
        /^Out of credits\. No contact credits are left\. The lifetime pool is spent\. What you can do: .*paid plan/,
      );
      await p.goto(`${app.url}/app/enrich`);
      await ready(p);
      const person = (await allRows(app, 'contacts')).find((r) => has(r.work_email))!;
      await p.getByLabel('Email, phone or profile URL').fill(person.work_email);
      await p.getByRole('button', { name: 'Find…' }).click();
      await p.getByTestId('quote').waitFor();
      expect(await p.getByTestId('quote').textContent()).toMatch(/Not enough credits/);
      await p.screenshot({ path: join(SHOTS, 'credits-exhausted-390.png'), fullPage: true });
      expect(num(await p.getByTestId('quote').getAttribute('data-available'))).toBe(0);
      // Going on anyway: the 402 is shown as what to do next, not as a bare error.
      await p.getByTestId('quote-confirm').click();
      const refused = p.locator('[data-testid="enrich-quote"] [data-testid="credits-exhausted"]');
      await refused.waitFor();
      expect(await refused.textContent()).toMatch(/^Out of credits\. .*What you can do: .*paid plan\.$/);
    } finally {
      await other.close();
    }
  });
});
