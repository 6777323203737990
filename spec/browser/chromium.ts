/**
 * Runs the bundled scenarios in headless Chromium (Debian's `chromium`, driven by puppeteer-core):
 * the page comes from one local port, the API from another.
 */
import puppeteer from 'puppeteer-core';
import { within } from './deadline.js';
import { startPageServer } from './page-server.js';
import type { Plan, ScenarioResult } from './outcome.js';
import type { RunPlan } from './runner.js';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// as root in a container: no sandbox (it needs user namespaces), and /tmp for shared memory (a container's /dev/shm is often 64 MB)
const args = ['--no-sandbox', '--headless=new', '--disable-dev-shm-usage'];

/** What a run in Chromium gives: the results, how long the browser took to start, its version. */
export interface ChromiumRun {
  results: ScenarioResult[];
  launchMs: number;
  version: string;
}

/** Loads `script` (the page bundle) in a fresh headless Chromium and runs `plan` there. */
export async function runInChromium(script: string, plan: Plan, timeoutMs: number): Promise<ChromiumRun> {
  const pageServer = await startPageServer(script);
  const started = performance.now();
  // puppeteer's own launch timeout bounds a browser that never comes up
  const browser = await puppeteer.launch({ executablePath, args, timeout: timeoutMs, protocolTimeout: timeoutMs }).catch(async (error: unknown) => {
    await pageServer.close();
    throw error;
  });
  const launchMs = performance.now() - started;
  try {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    await page.goto(pageServer.url, { timeout: timeoutMs, waitUntil: 'load' });
    await page
      .waitForFunction(() => 'portable' in globalThis, { timeout: timeoutMs })
      .catch(() => {
        throw new Error(`the page never exposed its scenarios: ${pageErrors.join('; ') || 'no error on the page'}`);
      });
    const run = page.evaluate((given) => (globalThis as unknown as { portable: RunPlan }).portable(given), plan);
    const results = await within(timeoutMs, 'the scenarios in Chromium', run);
    return { results, launchMs, version: await browser.version() };
  } finally {
    await within(10_000, 'closing Chromium', browser.close()).catch(() => browser.process()?.kill('SIGKILL'));
    await pageServer.close();
  }
}
