/**
 * Runs the bundled scenarios in Cloudflare's workerd through miniflare: the bundle is a module
 * Worker whose fetch handler runs them against the API server and answers JSON.
 * No `nodejs_compat` flag: the library must run on what a Worker has by default.
 */
import { Miniflare } from 'miniflare';
import { within } from './deadline.js';
import type { ScenarioOutcome } from './outcome.js';

/** What a run in workerd gives: the outcomes per backend and how long workerd took to start. */
export interface WorkerdRun {
  outcomes: ScenarioOutcome[];
  startMs: number;
}

/** Starts workerd with `script` (worker bundle) and asks it to run the scenarios against `apiBase` once per backend. */
export async function runInWorkerd(script: string, apiBase: string, backends: readonly string[], timeoutMs: number): Promise<WorkerdRun> {
  const started = performance.now();
  const worker = new Miniflare({ modules: true, script, compatibilityDate: '2026-07-01' });
  try {
    await within(timeoutMs, 'workerd start', worker.ready);
    const startMs = performance.now() - started;
    const outcomes: ScenarioOutcome[] = [];
    for (const backend of backends) {
      const query = new URLSearchParams({ base: apiBase, backend });
      const response = await within(timeoutMs, `workerd, backend ${backend}`, worker.dispatchFetch(`http://worker.test/?${query.toString()}`));
      const text = await response.text();
      if (!response.ok) throw new Error(`the Worker answered ${response.status}: ${text.slice(0, 2000)}`);
      outcomes.push(...(JSON.parse(text) as ScenarioOutcome[]));
    }
    return { outcomes, startMs };
  } finally {
    await within(10_000, 'closing workerd', worker.dispose()).catch(() => undefined);
  }
}
