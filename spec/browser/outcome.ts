/** One scenario's result on one backend, as the page and the Worker hand it back (plain JSON). */
export type { ScenarioResult } from '../portable/scenarios.js';

/** What to run in one runtime, sent from the harness to the page or the Worker. */
export interface Plan {
  /** The API server, `http://127.0.0.1:PORT`. */
  readonly base: string;
  /** Backends the runtime runs: every scenario on each. */
  readonly backends: readonly string[];
  /** Backends the runtime cannot run: each must be a ConfigError naming {@link runtime}. */
  readonly unsupported: readonly string[];
  /** What the library's messages call this runtime ("a browser", "Cloudflare Workers"). */
  readonly runtime: string;
}
