import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium, driven by playwright-core; the browser tests skip (with a line saying so) where it is absent. */
export const CHROMIUM = process.env.CDS_CHROMIUM ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** `describe` when Chromium is installed; otherwise `describe.skip`, after printing why. */
export function describeWithChromium(name: string, fn: () => void): void {
  if (hasChromium) {
    describe(name, fn);
    return;
  }
  process.stdout.write(`SKIPPED browser tests "${name}": no Chromium at ${CHROMIUM} (apt-get install chromium)\n`);
  describe.skip(name, fn);
}
