/**
 * What only a browser or Worker build must show beside the portable scenarios: a client with no
 * backend set works, fetch being the default there (the node backends are refused: the plan's
 * `unsupported` list); a bad setting is a ConfigError at the client's first request, where its
 * settings are merged, and nothing is sent. Bundled with lib/index.ts resolved to lib/browser.ts (bundle.ts).
 */
import { ConfigError, HttpBuilder, type Backend } from '../../lib/index.js';
import { describe } from './runner.js';
import type { Plan, ScenarioResult } from './outcome.js';

/** This runtime's own checks, one result each. */
export async function runRuntimeChecks(plan: Plan): Promise<ScenarioResult[]> {
  return [await defaultBackend(plan), await badSettingAtFirstRequest(plan)];
}

/** The result of a check named `scenario`, started now: `result(ok, error?)` once it is done. */
function resultOf(backend: string, scenario: string): (ok: boolean, error?: string) => ScenarioResult {
  const started = Date.now();
  return (ok, error) => ({ backend, scenario, ok, error, ms: Date.now() - started });
}

/** A client that names no backend gets the user from `plan.base` (no other backend can run here). */
async function defaultBackend(plan: Plan): Promise<ScenarioResult> {
  const result = resultOf('(default)', 'no backend set = fetch');
  const http = HttpBuilder.configure((c) => {
    c.request.uri = plan.base;
  });
  try {
    const user = (await http.get((c) => {
      c.request.uri.path = '/users/42';
    })) as { name?: unknown };
    return user.name === 'Ada' ? result(true) : result(false, `expected the user Ada, got ${JSON.stringify(user)}`);
  } catch (error) {
    return result(false, describe(error));
  } finally {
    await http.close().catch(() => undefined);
  }
}

/** A setting checked when the levels merge: configure() returns the client, its first request rejects with the ConfigError, unsent. */
async function badSettingAtFirstRequest(plan: Plan): Promise<ScenarioResult> {
  const result = resultOf('(any)', 'bad setting: ConfigError at the first request, unsent');
  let sent = 0;
  const backend: Backend = {
    name: 'counting',
    send: () => Promise.reject(new Error(`sent (${++sent})`)),
    close: () => Promise.resolve(),
  };
  try {
    const http = HttpBuilder.configure((c) => {
      c.request.uri = plan.base;
      c.client.backend = backend;
      c.request.headers = 'x' as never;
    });
    const error = await http.get().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    await http.close();
    if (!(error instanceof ConfigError) || !error.message.startsWith('request.headers must be a plain object')) {
      return result(false, `expected the ConfigError of request.headers, got ${describe(error)}`);
    }
    return sent === 0 ? result(true) : result(false, `${sent} request(s) reached the backend`);
  } catch (error) {
    return result(false, `configure() or close() threw: ${describe(error)}`);
  }
}
