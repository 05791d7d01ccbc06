/**
 * Studio in a real browser: Debian's Chromium (provisioned by scripts/provision-browser.sh,
 * launched through executablePath: Playwright downloads nothing) against the real stack that
 * global-setup.ts starts. One worker: the scenarios share one offline model, whose script
 * is global, and the machine has two cores.
 */
import { defineConfig } from '@playwright/test';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.ts$/,
  outputDir: '../../.local/playwright-results',
  globalSetup: './global-setup.ts',
  workers: 1,
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 20_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS },
    viewport: { width: 1360, height: 860 },
    locale: 'en-US',
    trace: 'retain-on-failure',
  },
});
