import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SimulatedNetwork } from '../../src/network-signals/simulated/simulated-network.js';
import { parseSignalTarget } from '../../src/network-signals/target.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { describeWithChromium, launchChromium } from './chromium.js';

/**
 * The web console in real Chromium, over the real app: sign in, credits as GET /v1/credits states them, revoke and
 * create a key, an audience of three filters counted as POST /v1/contacts/count counts it, a preview that spends
 * exactly the rows shown, an export downloaded as CSV, sign-out. Every page is captured at 1280 and 390 px wide under
 * test-output/console/.
 */
/** The page's document, inside page.waitForFunction callbacks (they run in the browser). */
interface PageElement {
  id: string;
  type: string;
  outerHTML: string;
  textContent: string | null;
  labels: { length: number };
  getAttribute(n: string): string | null;
}
declare const document: {
  cookie: string;
  activeElement: { id: string } | null;
  documentElement: { scrollWidth: number };
  querySelector(s: string): PageElement | null;
  querySelectorAll(s: string): Iterable<PageElement>;
};

const SHOTS = join(process.cwd(), 'test-output', 'console');
const digits = (s: string | null) => Number((s ?? '').split(' of ')[0]!.replace(/[^0-9]/g, ''));

describeWithChromium('web console in Chromium', () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let apiKey: string;

  const ready = async () => {
    await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
  };
  const open = async (path: string) => {
    await page.goto(`${app.url}${path}`);
    await ready();
  };
  /** Full-page screenshots at a laptop and a phone width; every form control of the page has a label. */
  const shoot = async (name: string) => {
    const unlabeled = await page.evaluate(() =>
      [...document.querySelectorAll('input, select, textarea')]
        .filter((e) => e.type !== 'hidden' && e.labels.length === 0 && !e.getAttribute('aria-label'))
        .map((e) => e.id || e.outerHTML),
    );
    expect({ page: name, unlabeled }).toEqual({ page: name, unlabeled: [] });
    // Nothing is wider than a phone screen but the tables and the chart, which scroll in their own boxes.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
      await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  };
  const credits = async (key = apiKey) => (await app.request('GET', '/v1/credits', { key })).body.data;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await startTestApp({ contacts: 2000, companies: 300 });
    apiKey = (await app.createAccount('pro', { name: 'Browser test' })).apiKey;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    page.on('pageerror', (e) => {
      throw e;
    });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('redirects to sign-in, signs in with the key and shows the credits of GET /v1/credits', async () => {
    await page.goto(`${app.url}/app`);
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
    await shoot('sign-in');
    // Keyboard only: the field takes focus from the page, Enter submits.
    for (let i = 0; i < 3 && (await page.evaluate(() => document.activeElement?.id)) !== 'api-key'; i++)
      await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('api-key');
    await page.keyboard.type('cds_wrong');
    await page.keyboard.press('Enter');
    await expectText('#sign-in-error', /unknown or revoked/);
    await page.getByLabel('API key').fill(apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${app.url}/app`);
    await ready();
    // The key is nowhere in the page, and the session cookie is out of the page's reach.
    expect(await page.content()).not.toContain(apiKey);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    const cookie = (await context.cookies()).find((c) => c.name === 'cds_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/app' });

    const c = await credits();
    expect(digits(await page.getByTestId('today-remaining').textContent())).toBe(c.contact.day.remaining);
    expect(digits(await page.getByTestId('month-remaining').textContent())).toBe(c.contact.month.remaining);
    expect(digits(await page.getByTestId('premium-available').textContent())).toBe(c.premium.available);
    expect(await page.getByTestId('plan').textContent()).toContain(c.plan);
    expect(await page.getByTestId('premium-resets-at').textContent()).toBe(
      `${c.premium.resets_at.slice(0, 16).replace('T', ' ')} UTC`,
    );
    await shoot('overview');
  });

  it('revokes the key and creates a new one, shown once', async () => {
    await open('/app/integrations');
    const keys = (await app.request('GET', '/v1/keys', { key: apiKey })).body.data;
    expect(await page.getByTestId('key-prefix').textContent()).toBe(`cds_${keys[0].prefix}…`);
    expect(await page.getByTestId('mcp-config').textContent()).toContain(`${app.url}/mcp`);
    await shoot('integrations');
    await page.getByRole('button', { name: 'Revoke key…' }).click();
    await page.getByRole('button', { name: 'Yes, revoke' }).click();
    await page.getByTestId('no-active-key').waitFor();
    expect((await app.request('GET', '/v1/credits', { key: apiKey })).status).toBe(401);
    // Without a key the session stays signed in, and the other pages say to create the next key.
    await page.goto(`${app.url}/app/audience`);
    await expectText('#view .error', /create a new key/);
    expect(new URL(page.url()).pathname).toBe('/app/audience');
    await open('/app/integrations');
    await page.getByRole('button', { name: 'Create key' }).click();
    const field = page.locator('#new-key');
    await field.waitFor();
    const secret = await field.inputValue();
    expect(secret).toMatch(/^cds_/);
    expect(secret).not.toBe(apiKey);
    expect((await app.request('GET', '/v1/credits', { key: secret })).status).toBe(200);
    // The API reference opened from here shows the new key in its examples; the key stays in the fragment.
    const docsHref = await page.locator('#docs-with-key').getAttribute('href');
    expect(docsHref).toBe(`/docs#key=${encodeURIComponent(secret)}`);
    const docs = await context.newPage();
    await docs.goto(`${app.url}${docsHref}`);
    await docs.waitForFunction('location.hash === ""');
    const curl = await docs.locator('[id="contacts.search"] code[data-snippet="curl"]').first().textContent();
    expect(curl).toContain(`"Authorization: Bearer ${secret}"`);
    const mcp = await docs.locator('[id="contacts.search"] code[data-snippet="mcp"]').first().textContent();
    expect(mcp).toContain(`"X-API-Key: ${secret}"`);
    expect(await docs.locator('#key-note').textContent()).toMatch(/console passed/);
    await docs.close();
    apiKey = secret;
    const fresh = (await app.request('GET', '/v1/keys', { key: apiKey })).body.data.find((k: any) => k.active);
    expect(await page.getByTestId('key-prefix').textContent()).toBe(`cds_${fresh.prefix}…`);
    // Shown once: a reload shows the prefix only.
    await open('/app/integrations');
    expect(await page.locator('#new-key').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
  });

  it('builds an audience of three filters whose live count is the count of POST /v1/contacts/count', async () => {
    await open('/app/audience');
    // Every family A filter key of the catalog has its control.
    const schema = (await app.request('GET', '/v1/contacts/schema', { key: apiKey })).body.data;
    const controls = await page
      .locator('form.filters [data-key]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));
    // (Range fields carry both bounds' keys; the signals picker writes `where`.)
    expect([...new Set(controls)].filter((k) => k !== 'where').sort()).toEqual(
      schema.filter_keys.map((k: { key: string }) => k.key).sort(),
    );
    await shoot('audience-empty');
    await pick('countries', 'us', 'united states');
    await pick('seniority', 'senior_ic');
    await page.getByLabel('Has a work email').selectOption('true');
    const filter = { countries: ['us'], seniority: ['senior_ic'], has_work_email: true };
    const expected = (await app.request('POST', '/v1/contacts/count', { key: apiKey, body: { filter } })).body.data
      .count as number;
    expect(expected).toBeGreaterThan(10);
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid="live-count"]')?.getAttribute('data-count') === String(n),
      expected,
      { timeout: 10_000 },
    );
    expect(JSON.parse((await page.getByTestId('mcp-call').textContent()) ?? '{}')).toEqual({
      tool: 'count_matches',
      arguments: { filter },
    });
    expect(await page.getByTestId('curl').textContent()).toContain(JSON.stringify({ filter }));
    await page.getByLabel('Call').selectOption('export');
    expect(JSON.parse((await page.getByTestId('mcp-call').textContent()) ?? '{}')).toEqual({
      tool: 'start_export',
      arguments: { filter, max_rows: 100 },
    });
    expect(await page.getByTestId('curl').textContent()).toContain(`${app.url}/v1/exports`);

    // The preview states its cost first, then spends exactly one contact credit per row shown.
    const before = await credits();
    await page.getByRole('button', { name: 'Show rows…' }).click();
    expect(await page.getByTestId('quote').getAttribute('data-credits')).toBe('10');
    await page.getByTestId('quote-confirm').click();
    await page.getByTestId('result-rows').waitFor();
    const shown = await page.locator('[data-testid="result-rows"] tbody tr').count();
    expect(shown).toBe(10);
    await eventually(async () => {
      const after = await credits();
      expect(before.contact.day.remaining - after.contact.day.remaining).toBe(shown);
      expect(after.contact.day.used - before.contact.day.used).toBe(shown);
    });
    expect(await page.getByTestId('spent').getAttribute('data-spent')).toBe(String(shown));
    await shoot('audience');

    // The export holds max_rows, then its CSV downloads with that many rows.
    await page.getByLabel('Rows to export').fill('7');
    await page.getByRole('button', { name: 'Export…' }).click();
    expect(await page.getByTestId('quote').getAttribute('data-credits')).toBe('7');
    await page.getByTestId('quote-confirm').click();
    expect(await page.getByTestId('export-hold').getAttribute('data-held')).toBe('7');
    const link = page.getByTestId('export-download');
    await link.waitFor({ timeout: 30_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const file = join(SHOTS, 'export.csv');
    await download.saveAs(file);
    const { readFileSync } = await import('node:fs');
    const lines = readFileSync(file, 'utf8').trim().split(/\r?\n/);
    expect(lines).toHaveLength(8);
    await shoot('audience-export');
  });

  it('lists the export with its status, rows, credits and link, and shows uploads and signals', async () => {
    await open('/app/exports');
    const rows = page.locator('[data-testid="exports"] tbody tr');
    expect(await rows.count()).toBe(1);
    const text = (await rows.first().textContent()) ?? '';
    expect(text).toContain('completed');
    expect(text).toContain('7 charged');
    expect(await rows.first().locator('a').getAttribute('href')).toContain('/files/exports/exp_');
    await shoot('exports');
    const target = 'https://www.network.com/in/someone/';
    const alert = await app.request('POST', '/v1/signals/alerts', {
      key: apiKey,
      body: { kind: 'network_profile', target, schedule: { interval_minutes: 120 } },
    });
    expect(alert.status).toBe(201);
    // The simulated network's follower counts hang on the release id (new for every test app), and about one company
    // page in ten has fewer than the 100 a collect needs: the first page with enough is collected.
    const host = app.services.config.networkHost;
    const net = new SimulatedNetwork({ host, clock: app.clock, engine: app.services.engine, delayMs: 0 });
    let company = '';
    for (let i = 0; !company && i < 200; i++) {
      const url = `https://www.${host}/company/acme-${i}`;
      if ((await net.estimate(parseSignalTarget('network_company', url, host))) >= 100) company = url;
    }
    const collect = await app.request('POST', '/v1/signals/collect', {
      key: apiKey,
      body: { kind: 'network_company', target: company, max_followers: 100 },
    });
    expect(collect.status).toBe(202);
    await open('/app/activity');
    await page.getByTestId('uploads-empty').waitFor();
    expect(await page.getByTestId('alerts').textContent()).toContain(alert.body.data.id);
    expect(await page.getByTestId('collects').textContent()).toContain(collect.body.data.job.id);
    await shoot('activity');
    await open('/app');
    // The chart's figures: today's search and export lines hold what the preview and the export were charged.
    await page.getByText('Figures').click();
    const today = app.clock.now().toISOString().slice(0, 10);
    const row = page.locator('[data-testid="usage-table"] tbody tr', { hasText: today });
    const headers = await page.locator('[data-testid="usage-table"] thead th').allTextContents();
    const cells = await row.locator('td').allTextContents();
    const cell = (name: string) => cells[headers.indexOf(name)];
    expect(cell('Search')).toBe('10');
    expect(cell('Export')).toBe('7');
    await shoot('overview-after');
  });

  it('shows the fair-use budgets of an unlimited plan as GET /v1/credits states them', async () => {
    const unlimited = await app.createAccount('unlimited', { name: 'Unlimited' });
    const other = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const p = await other.newPage();
      await p.goto(`${app.url}/app/sign-in`);
      await p.getByLabel('API key').fill(unlimited.apiKey);
      await p.getByRole('button', { name: 'Sign in' }).click();
      await p.waitForURL(`${app.url}/app`);
      await p.waitForSelector('body[data-ready="true"]');
      const fair = (await app.request('GET', '/v1/credits', { key: unlimited.apiKey })).body.data.fair_use;
      const rows = await p.locator('[data-testid="fair-use"] tbody tr').allTextContents();
      expect(rows).toHaveLength(6);
      const searchDay = p.locator('[data-testid="fair-use"] tbody tr', { hasText: /^searchday/ });
      const cells = await searchDay.locator('td').allTextContents();
      expect(cells.slice(0, 5)).toEqual([
        'search',
        'day',
        fair.search.day.used.toLocaleString('en'),
        fair.search.day.remaining.toLocaleString('en'),
        fair.search.day.cap.toLocaleString('en'),
      ]);
      await p.setViewportSize({ width: 1280, height: 900 });
      await p.screenshot({ path: join(SHOTS, 'overview-unlimited-1280.png'), fullPage: true });
      await p.setViewportSize({ width: 390, height: 844 });
      await p.screenshot({ path: join(SHOTS, 'overview-unlimited-390.png'), fullPage: true });
    } finally {
      await other.close();
    }
  });

  it('signs out, after which the session is refused', async () => {
    const token = (await context.cookies()).find((c) => c.name === 'cds_session')?.value;
    expect(token).toBeTruthy();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${app.url}/app/sign-in`);
    const res = await fetch(`${app.url}/app/api/session`, { headers: { Cookie: `cds_session=${token}` } });
    expect(res.status).toBe(401);
    await page.goto(`${app.url}/app/exports`);
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
  });

  async function pick(key: string, value: string, search?: string) {
    const picker = page.locator(`details[data-key="${key}"]`);
    await picker.locator('summary').click();
    if (search) await picker.getByRole('searchbox').fill(search);
    const box = picker.locator(`input[type="checkbox"][value="${value}"]`);
    await box.waitFor();
    await box.check();
    await picker.locator('summary').click();
  }

  async function expectText(selector: string, re: RegExp) {
    await page.waitForFunction(
      ([s, source]) => new RegExp(source as string).test(document.querySelector(s as string)?.textContent ?? ''),
      [selector, re.source],
      { timeout: 10_000 },
    );
  }
});

/** Retries an assertion for up to two seconds (charges settle once the answer has been written out). */
async function eventually(check: () => Promise<void>): Promise<void> {
  let last: unknown;
  for (let i = 0; i < 40; i++) {
    try {
      await check();
      return;
    } catch (e) {
      last = e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw last;
}
