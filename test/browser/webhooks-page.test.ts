import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { headersOf, type Receiver, startReceiver } from '../helpers/webhook-receiver.js';
import { describeWithChromium, launchChromium } from './chromium.js';

/**
 * The console's Webhooks page in real Chromium over the real app: add an endpoint (the secret shown once), send a
 * test ping that a real receiver gets and verifies with the shown secret (standardwebhooks), the delivery in the log,
 * an endpoint's health; at 1280 and 390 px wide without sideways scroll (screenshots under test-output/console/).
 */
declare const document: { documentElement: { scrollWidth: number } };

const SHOTS = join(process.cwd(), 'test-output', 'console');

describeWithChromium('console Webhooks page in Chromium', () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let receiver: Receiver;
  let apiKey: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    receiver = await startReceiver();
    app = await startTestApp({
      contacts: 300,
      companies: 50,
      now: new Date().toISOString(),
      env: { CDS_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' },
    });
    apiKey = (await app.createAccount('pro', { name: 'Hooks' })).apiKey;
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('pageerror', (e) => {
      throw e;
    });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await receiver?.close();
  });

  const noSideways = async (name: string) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  };

  it('adds an endpoint, sends a test ping the receiver verifies with the shown secret, and lists the delivery', async () => {
    await page.goto(`${app.url}/app/sign-in`);
    await page.getByLabel('API key').fill(apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${app.url}/app`);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL(`${app.url}/app/webhooks`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.getByTestId('webhook-empty').waitFor();
    await noSideways('webhooks-empty');

    await page.getByLabel('URL (https)').fill(receiver.url);
    await page.getByLabel('Description (optional)').fill('CRM sync');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.getByTestId('webhook-secret-value').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    const listed = (await app.request('GET', '/v1/webhooks', { key: apiKey })).body.data;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ url: receiver.url, events: ['export.completed', 'export.failed'] });
    await page.getByTestId('webhook-rows').waitFor();
    expect(await page.getByTestId('webhook-rows').textContent()).toContain(receiver.url);

    await page.getByRole('button', { name: 'Send test' }).click();
    const [got] = await receiver.waitFor(1);
    expect(new Webhook(secret).verify(got!.body, headersOf(got!))).toMatchObject({
      type: 'ping',
      data: { webhook_id: listed[0].id },
    });
    await page.waitForFunction(() => {
      const t = (globalThis as any).document.querySelector('[data-testid="webhook-attempts"]')?.textContent ?? '';
      return t.includes('Delivered');
    });
    expect(await page.getByTestId('webhook-attempts').textContent()).toContain('ping');
    await noSideways('webhooks');

    // Health as GET says it, after a reload.
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await page.getByTestId('webhook-rows').waitFor();
    expect(await page.locator('[data-health]').getAttribute('data-health')).toBe('healthy');
    expect((await app.request('GET', `/v1/webhooks/${listed[0].id}`, { key: apiKey })).body.data.health).toBe(
      'healthy',
    );

    // A disabled endpoint shows why, and can be switched on again from the page.
    await app.request('PATCH', `/v1/webhooks/${listed[0].id}`, { key: apiKey, body: { enabled: false } });
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await page.getByTestId('webhook-rows').waitFor();
    expect(await page.locator('[data-health]').getAttribute('data-health')).toBe('disabled');
    expect(await page.getByTestId('webhook-rows').textContent()).toContain('Disabled by the account.');
    await noSideways('webhooks-disabled');
    await page.getByRole('button', { name: 'Enable again' }).click();
    await page.waitForFunction(
      () => (globalThis as any).document.querySelector('[data-health]')?.getAttribute('data-health') !== 'disabled',
    );
    expect((await app.request('GET', `/v1/webhooks/${listed[0].id}`, { key: apiKey })).body.data.enabled).toBe(true);
  });
});
