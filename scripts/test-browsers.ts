/**
 * `npm run test:browsers`: the portable scenarios in headless Chromium and in Cloudflare's workerd,
 * against a local API server with CORS. Prints one row per scenario and runtime, then
 * `N passed, N failed`; exits non-zero on any failure. Needs Debian's `chromium`
 * (`apt-get install chromium`; another binary: CHROMIUM_PATH).
 *
 * `--smoke` runs a placeholder of global `fetch` calls instead of the library: it proves the
 * plumbing (bundling, the page, the Worker, CORS) alone.
 */
import { fileURLToPath } from 'node:url';
import { bundleFor } from '../spec/browser/bundle.js';
import { runInChromium } from '../spec/browser/chromium.js';
import { describe } from '../spec/browser/runner.js';
import { report, type RuntimeOutcomes } from '../spec/browser/report.js';
import { runInWorkerd } from '../spec/browser/workerd.js';
import { startSmokeServer } from '../spec/browser/smoke-server.js';

/** Every single wait (a launch, a page, one backend's scenarios) ends within this. */
const TIMEOUT_MS = 120_000;
/** The backends the docs list for browsers and Workers. */
const BACKENDS = ['fetch'] as const;

const smoke = process.argv.includes('--smoke');
const scenarios = fileURLToPath(new URL(smoke ? '../spec/browser/smoke-scenarios.ts' : '../spec/portable/scenarios.ts', import.meta.url));

const started = performance.now();
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

const input = { scenarios, runtimeChecks: !smoke };
const [pageScript, workerScript] = await Promise.all([bundleFor('page', input), bundleFor('worker', input)]);
const bundledMs = performance.now() - started;

const api = await startSmokeServer();
const runs: RuntimeOutcomes[] = [];
// performance.now() counts from the process's start: `started` is what loading tsx, puppeteer-core and miniflare took
const timings = [`loading ${seconds(started)}`, `bundles ${seconds(bundledMs)}`];
try {
  try {
    const chromium = await runInChromium(pageScript, api.url, BACKENDS, TIMEOUT_MS);
    runs.push({ runtime: chromium.version.replace('/', ' '), outcomes: chromium.outcomes });
    timings.push(`Chromium launch ${seconds(chromium.launchMs)}`);
  } catch (error) {
    runs.push({ runtime: 'Chromium', outcomes: [{ name: 'run', passed: false, detail: describe(error) }] });
  }
  try {
    const workerd = await runInWorkerd(workerScript, api.url, BACKENDS, TIMEOUT_MS);
    runs.push({ runtime: 'workerd', outcomes: workerd.outcomes });
    timings.push(`workerd start ${seconds(workerd.startMs)}`);
  } catch (error) {
    runs.push({ runtime: 'workerd', outcomes: [{ name: 'run', passed: false, detail: describe(error) }] });
  }
} finally {
  await api.close();
}

const { lines, passed, failed } = report(runs);
console.log(lines.join('\n'));
console.log(`\n${timings.join(', ')}, total ${seconds(performance.now())}`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
