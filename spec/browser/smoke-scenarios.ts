/**
 * A stand-in for the portable scenarios (spec/portable/scenarios.ts) with the same entry point,
 * but global `fetch` only: `npm run test:browsers -- --smoke` proves the harness's plumbing
 * (bundling, the page and the Worker, CORS, collecting results) without the library, against the
 * same server (spec/portable/server.ts).
 */
import type { ScenarioResult } from './outcome.js';

type Check = (base: string) => Promise<void>;

function same(actual: unknown, expected: unknown, what: string): void {
  const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)];
  if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

const CHECKS: Record<string, Check> = {
  'GET JSON': async (base) => {
    same(await (await fetch(`${base}/users/42`)).json(), { id: 42, name: 'Ada' }, 'user');
  },
  'POST JSON': async (base) => {
    const response = await fetch(`${base}/echo`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"name":"Grace"}' });
    const echo = (await response.json()) as { method: string; body: string };
    same([echo.method, echo.body], ['POST', '{"name":"Grace"}'], 'echo');
  },
  'WWW-Authenticate exposed': async (base) => {
    const response = await fetch(`${base}/basic`);
    same([response.status, response.headers.get('www-authenticate')?.split(' ')[0]], [401, 'Basic'], 'challenge');
  },
  gzip: async (base) => {
    same(await (await fetch(`${base}/gzip`)).json(), { zipped: true }, 'decoded body');
  },
};

/** Runs every check against `base`; `_lib` is the library the real scenarios take (unused). */
export async function runScenarios(_lib: unknown, base: string, backend: string): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const [scenario, check] of Object.entries(CHECKS)) {
    const started = Date.now();
    try {
      await check(base);
      results.push({ backend, scenario, ok: true, ms: Date.now() - started });
    } catch (error) {
      results.push({ backend, scenario, ok: false, error: String(error), ms: Date.now() - started });
    }
  }
  return results;
}
