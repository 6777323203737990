/**
 * A placeholder for the portable scenarios while they are written (spec/portable/scenarios.ts):
 * the same shape, but global `fetch` only, so the harness's plumbing (bundling, the page and the
 * Worker, CORS, collecting results) is proven without the library.
 */
import type { ScenarioOutcome } from './outcome.js';

type Check = (base: string) => Promise<void>;

function expectEqual(actual: unknown, expected: unknown, what: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

const checks: Record<string, Check> = {
  'GET JSON': async (base) => {
    const response = await fetch(`${base}/json`);
    expectEqual(await response.json(), { hello: 'world' }, 'body');
  },
  'POST JSON': async (base) => {
    const body = JSON.stringify({ name: 'Ada' });
    const response = await fetch(`${base}/echo`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expectEqual(await response.json(), { name: 'Ada' }, 'echo');
  },
  'exposed WWW-Authenticate': async (base) => {
    const response = await fetch(`${base}/auth`);
    expectEqual([response.status, response.headers.get('www-authenticate')], [401, 'Basic realm="smoke"'], 'challenge');
  },
  gzip: async (base) => {
    const response = await fetch(`${base}/gzip`);
    expectEqual(await response.text(), 'zipped', 'text');
  },
};

/** Runs every check against `base`; `backend` is only reported (fetch is all there is here). */
export async function runScenarios(base: string, backend: string): Promise<ScenarioOutcome[]> {
  const outcomes: ScenarioOutcome[] = [];
  for (const [name, check] of Object.entries(checks)) {
    try {
      await check(base);
      outcomes.push({ name: `${name} (${backend})`, passed: true });
    } catch (error) {
      outcomes.push({ name: `${name} (${backend})`, passed: false, detail: String(error) });
    }
  }
  return outcomes;
}
