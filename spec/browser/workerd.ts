/**
 * Runs the bundled scenarios in Cloudflare's workerd through miniflare: the bundle is a module
 * Worker whose fetch handler runs them against the API server and answers JSON.
 * No `nodejs_compat` flag: the library must run on what a Worker has by default.
 */
import { Miniflare } from 'miniflare';
import { within } from './deadline.js';
import type { Plan, ScenarioResult } from './outcome.js';

/** What a run in workerd gives: the results and how long workerd took to start. */
export interface WorkerdRun {
  results: ScenarioResult[];
  startMs: number;
}

/** Starts workerd with `script` (the worker bundle) and has it run `plan`. */
export async function runInWorkerd(script: string, plan: Plan, timeoutMs: number): Promise<WorkerdRun> {
  const started = performance.now();
  const worker = new Miniflare({ modules: true, script, compatibilityDate: '2026-07-01' });
  try {
    await within(timeoutMs, 'workerd start', worker.ready);
    const startMs = performance.now() - started;
    const asked = worker.dispatchFetch('http://worker.test/', { method: 'POST', body: JSON.stringify(plan) });
    const response = await within(timeoutMs, 'the scenarios in workerd', asked);
    const text = await within(timeoutMs, "the Worker's answer", response.text());
    if (!response.ok) throw new Error(`the Worker answered ${response.status}: ${text.slice(0, 2000)}`);
    return { results: JSON.parse(text) as ScenarioResult[], startMs };
  } finally {
    await within(10_000, 'closing workerd', worker.dispose()).catch(() => undefined);
  }
}
