/**
 * What only a browser or Worker build must show, beside the portable scenarios: a client with no
 * backend set works (fetch is the default there), and `backend: 'native'` is a ConfigError.
 * Bundled with `httpbuilder-ts` resolved to lib/browser.ts (bundle.ts maps lib/index.ts to it).
 */
import { ConfigError, HttpBuilder } from '../../lib/index.js';
import { describe } from './runner.js';
import type { ScenarioOutcome } from './outcome.js';

async function outcome(name: string, check: () => Promise<void>): Promise<ScenarioOutcome> {
  try {
    await check();
    return { name, passed: true };
  } catch (error) {
    return { name, passed: false, detail: describe(error) };
  }
}

/** The default backend is fetch: a client that names none gets JSON from `base`. */
function defaultBackend(base: string): Promise<ScenarioOutcome> {
  return outcome('no backend set = fetch', async () => {
    const http = HttpBuilder.configure((c) => {
      c.request.uri = base;
    });
    try {
      const answer: unknown = await http.get((c) => {
        c.request.uri.path = '/json';
      });
      if (typeof answer !== 'object' || answer === null) throw new Error(`expected a parsed JSON object, got ${JSON.stringify(answer)}`);
    } finally {
      await http.close();
    }
  });
}

/** `backend: 'native'` needs node:http: the request is refused with a ConfigError, never sent. */
function nativeRefused(base: string): Promise<ScenarioOutcome> {
  return outcome("backend 'native' is a ConfigError", async () => {
    const http = HttpBuilder.configure((c) => {
      c.request.uri = base;
      c.client.backend = 'native';
    });
    try {
      await http.get((c) => {
        c.request.uri.path = '/json';
      });
    } catch (error) {
      if (error instanceof ConfigError) return;
      throw new Error(`expected a ConfigError, got ${describe(error)}`, { cause: error });
    } finally {
      await http.close();
    }
    throw new Error('expected a ConfigError, the request succeeded');
  });
}

/** Both checks, against the API server at `base` (`_backend` is the scenarios' and unused here). */
export async function runRuntimeChecks(base: string, _backend: string): Promise<ScenarioOutcome[]> {
  return [await defaultBackend(base), await nativeRefused(base)];
}
