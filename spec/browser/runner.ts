/**
 * What the page and the Worker run: a {@link Plan} of the portable scenarios on this runtime's
 * backends, the ConfigError check on the others, then this runtime's own checks, as one list of
 * results. The bundle's entry (made by bundle.ts) passes in the library and the scenario module.
 */
import type { Plan, ScenarioResult } from './outcome.js';

/** The portable scenario module's entry points (spec/portable/scenarios.ts), for the library `L`. */
export interface ScenarioModule<L> {
  runScenarios(lib: L, base: string, backend: string): Promise<ScenarioResult[]>;
  runUnsupported?(lib: L, base: string, backend: string, runtime: string): Promise<ScenarioResult>;
}

/** Checks of the runtime's own (runtime-checks.ts): the plan in, results out. */
export type ExtraChecks = (plan: Plan) => Promise<ScenarioResult[]>;

/** Runs a whole plan. */
export type RunPlan = (plan: Plan) => Promise<ScenarioResult[]>;

/** A runner that never throws: a step that does is one failed result, not a lost page. */
export function planRunner<L>(lib: L, scenarios: ScenarioModule<L>, extra: readonly ExtraChecks[] = []): RunPlan {
  return async (plan) => {
    const results: ScenarioResult[] = [];
    const step = async (backend: string, scenario: string, run: () => Promise<ScenarioResult[]>) => {
      const started = Date.now();
      try {
        results.push(...(await run()));
      } catch (error) {
        results.push({ backend, scenario, ok: false, error: describe(error), ms: Date.now() - started });
      }
    };
    for (const backend of plan.backends) await step(backend, 'runScenarios', () => scenarios.runScenarios(lib, plan.base, backend));
    for (const backend of plan.unsupported) {
      await step(backend, `ConfigError naming ${plan.runtime}`, async () => {
        if (scenarios.runUnsupported === undefined) throw new Error('the scenario module has no runUnsupported');
        return [await scenarios.runUnsupported(lib, plan.base, backend, plan.runtime)];
      });
    }
    for (const check of extra) await step('-', 'runtime checks', () => check(plan));
    return results;
  };
}

/** An error as one line: its name and message (what crosses back as JSON). */
export function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Makes `run` callable from puppeteer's page.evaluate as `globalThis.portable(plan)`. */
export function exposeToPage(run: RunPlan): void {
  (globalThis as { portable?: RunPlan }).portable = run;
}

/** A module Worker whose fetch handler runs the plan POSTed to it (JSON) and answers the results as JSON. */
export function workerFor(run: RunPlan): { fetch: (request: Request) => Promise<Response> } {
  return {
    async fetch(request) {
      const results = await run((await request.json()) as Plan);
      return new Response(JSON.stringify(results), { headers: { 'content-type': 'application/json' } });
    },
  };
}
