/**
 * `npm run test:browsers`: the portable scenarios (spec/portable/scenarios.ts) in headless
 * Chromium and in Cloudflare's workerd, bundled with esbuild for the browser, against the
 * portable API server (spec/portable/server.ts, CORS) from a page on another port. Prints one
 * row per runtime, backend and scenario, then `N passed, N failed`; exits non-zero on any
 * failure. Needs Debian's `chromium` (`apt-get install chromium`; another binary: CHROMIUM_PATH).
 *
 * `--smoke` runs a stand-in of global `fetch` calls (spec/browser/smoke-scenarios.ts) instead
 * of the library: it proves the plumbing (bundling, the page, the Worker, CORS) alone.
 */
import { fileURLToPath } from 'node:url';
import { bundleFor } from '../spec/browser/bundle.js';
import { runInChromium } from '../spec/browser/chromium.js';
import type { Plan, ScenarioResult } from '../spec/browser/outcome.js';
import { report, type RuntimeResults } from '../spec/browser/report.js';
import { describe } from '../spec/browser/runner.js';
import { startPortableServer } from '../spec/portable/server.js';
import { runInWorkerd } from '../spec/browser/workerd.js';

/** Every single wait (a launch, a page, a runtime's scenarios) ends within this. */
const TIMEOUT_MS = 120_000;
/** What the docs list for browsers and Workers: fetch runs; the node backends are ConfigErrors naming the runtime. */
const BACKENDS = ['fetch'];
const NODE_BACKENDS = ['native', 'undici', 'axios', 'got'];

const smoke = process.argv.includes('--smoke');
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** One runtime's results, or one failed row saying why it did not run at all. */
async function attempt(runtime: string, run: () => Promise<RuntimeResults>): Promise<RuntimeResults> {
  try {
    return await run();
  } catch (error) {
    const failed: ScenarioResult = { backend: '-', scenario: 'run', ok: false, error: describe(error), ms: 0 };
    return { runtime, results: [failed] };
  }
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
// performance.now() counts from the process's start: this is what loading tsx, puppeteer-core and miniflare took
const timings = [`loading ${seconds(performance.now())}`];

const input = { scenarios: here(smoke ? '../spec/browser/smoke-scenarios.ts' : '../spec/portable/scenarios.ts'), library: !smoke };
/** The bundle for `target`, its time noted; a build that fails (a `node:` import) fails that runtime's row. */
async function bundle(target: 'page' | 'worker'): Promise<string> {
  const started = performance.now();
  const script = await bundleFor(target, input);
  timings.push(`${target} bundle ${seconds(performance.now() - started)}`);
  return script;
}

const api = await startPortableServer();
const plan = (runtime: string): Plan => ({ base: api.url, backends: BACKENDS, unsupported: smoke ? [] : NODE_BACKENDS, runtime });
const runs: RuntimeResults[] = [];
try {
  const browser = performance.now();
  runs.push(
    await attempt('Chromium', async () => {
      const chromium = await runInChromium(await bundle('page'), plan('a browser'), TIMEOUT_MS);
      timings.push(`Chromium launch ${seconds(chromium.launchMs)}`);
      return { runtime: chromium.version.replace('/', ' '), results: chromium.results };
    }),
  );
  timings.push(`Chromium in all ${seconds(performance.now() - browser)}`);
  const worker = performance.now();
  runs.push(
    await attempt('workerd', async () => {
      const workerd = await runInWorkerd(await bundle('worker'), plan('Cloudflare Workers'), TIMEOUT_MS);
      timings.push(`workerd start ${seconds(workerd.startMs)}`);
      return { runtime: 'workerd', results: workerd.results };
    }),
  );
  timings.push(`workerd in all ${seconds(performance.now() - worker)}`);
} finally {
  await api.close();
}

const { lines, passed, failed } = report(runs);
console.log(lines.join('\n'));
console.log(`\n${timings.join(', ')}; total ${seconds(performance.now())}`);
console.log(`${passed} passed, ${failed} failed`);
// exit, not exitCode: a child process Chromium or workerd left behind must not keep CI waiting
process.exit(failed === 0 && passed > 0 ? 0 : 1);
