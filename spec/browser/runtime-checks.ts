/**
 * What only a browser or Worker build must show beside the portable scenarios: a client with no
 * backend set works, fetch being the default there (the node backends are refused: the plan's
 * `unsupported` list). Bundled with lib/index.ts resolved to lib/browser.ts (bundle.ts).
 */
import { HttpBuilder } from '../../lib/index.js';
import { describe } from './runner.js';
import type { Plan, ScenarioResult } from './outcome.js';

/** A client that names no backend gets the user from `plan.base` (no other backend can run here). */
export async function runRuntimeChecks(plan: Plan): Promise<ScenarioResult[]> {
  const started = Date.now();
  const result = (ok: boolean, error?: string): ScenarioResult => ({
    backend: '(default)',
    scenario: 'no backend set = fetch',
    ok,
    error,
    ms: Date.now() - started,
  });
  const http = HttpBuilder.configure((c) => {
    c.request.uri = plan.base;
  });
  try {
    const user = (await http.get((c) => {
      c.request.uri.path = '/users/42';
    })) as { name?: unknown };
    return [user.name === 'Ada' ? result(true) : result(false, `expected the user Ada, got ${JSON.stringify(user)}`)];
  } catch (error) {
    return [result(false, describe(error))];
  } finally {
    await http.close().catch(() => undefined);
  }
}
