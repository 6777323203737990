/**
 * Runs the bundled scenarios in headless Chromium (Debian's `chromium`, driven by puppeteer-core):
 * the page comes from one local port, the API from another.
 */
import puppeteer from 'puppeteer-core';
import { within } from './deadline.js';
import { startPageServer } from './page-server.js';
import type { ScenarioOutcome } from './outcome.js';
import type { RunScenarios } from './runner.js';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** What a run in Chromium gives: the outcomes per backend and how long the browser took to start. */
export interface ChromiumRun {
  outcomes: ScenarioOutcome[];
  launchMs: number;
  version: string;
}

/** Loads `script` (page bundle) in a fresh headless Chromium and runs it against `apiBase` once per backend. */
export async function runInChromium(script: string, apiBase: string, backends: readonly string[], timeoutMs: number): Promise<ChromiumRun> {
  const pageServer = await startPageServer(script);
  const started = performance.now();
  // puppeteer's own launch timeout bounds a browser that never comes up
  const browser = await puppeteer
    .launch({ executablePath, args: ['--no-sandbox', '--headless=new'], timeout: timeoutMs, protocolTimeout: timeoutMs })
    .catch(async (error: unknown) => {
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
    const outcomes: ScenarioOutcome[] = [];
    for (const backend of backends) {
      const run = page.evaluate((base, name) => (globalThis as unknown as { portable: { run: RunScenarios } }).portable.run(base, name), apiBase, backend);
      outcomes.push(...(await within(timeoutMs, `Chromium, backend ${backend}`, run)));
    }
    return { outcomes, launchMs, version: await browser.version() };
  } finally {
    await within(10_000, 'closing Chromium', browser.close()).catch(() => browser.process()?.kill('SIGKILL'));
    await pageServer.close();
  }
}
