/**
 * What the page and the Worker run: the portable scenarios, then this runtime's own checks,
 * as one list of outcomes. The bundle's entry (made by bundle.ts) passes both in.
 */
import type { ScenarioOutcome } from './outcome.js';

/** The portable scenarios' entry point, or the runtime checks': a base URL and a backend name in, outcomes out. */
export type RunScenarios = (base: string, backend: string) => Promise<ScenarioOutcome[]>;

/** Runs each runner in turn; a runner that throws is one failed outcome, not a lost page. */
export function allOf(...runners: RunScenarios[]): RunScenarios {
  return async (base, backend) => {
    const outcomes: ScenarioOutcome[] = [];
    for (const run of runners) {
      try {
        outcomes.push(...(await run(base, backend)));
      } catch (error) {
        outcomes.push({ name: `scenario runner (${backend})`, passed: false, detail: describe(error) });
      }
    }
    return outcomes;
  };
}

/** An error as one line: its name, code and message (what crosses back as JSON). */
export function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${error.message}`;
}

/** Makes `run` callable from puppeteer's page.evaluate as `globalThis.portable.run(base, backend)`. */
export function exposeToPage(run: RunScenarios): void {
  (globalThis as { portable?: { run: RunScenarios } }).portable = { run };
}

/** A module Worker whose fetch handler runs `run` with the `base` and `backend` query parameters and answers JSON. */
export function workerFor(run: RunScenarios): { fetch: (request: Request) => Promise<Response> } {
  return {
    async fetch(request) {
      const query = new URL(request.url).searchParams;
      const outcomes = await run(query.get('base') ?? '', query.get('backend') ?? 'fetch');
      return new Response(JSON.stringify(outcomes), { headers: { 'content-type': 'application/json' } });
    },
  };
}
