/**
 * The portable scenarios on a server-side runtime (Node, Bun, Deno), from the node entry of the
 * library. scripts/test-runtimes.ts bundles this file and runs it on each runtime:
 *
 *   <runtime> run-node.mjs <base URL> <runtime name> <backend>[!] ...
 *
 * A backend marked `!` is one the runtime cannot run (the docs say so): it must refuse with a
 * ConfigError naming the runtime. Prints one JSON {@link ScenarioResult} per line.
 */
import * as library from '../../lib/index.js';
import { Stream } from '../../lib/stream.js';
import { runScenarios, runUnsupported } from './scenarios.js';

declare const Deno: { args: string[] } | undefined;

const args = typeof Deno === 'undefined' ? process.argv.slice(2) : Deno.args;
const [base, runtime, ...backends] = args;
const lib = { ...library, Stream };
for (const choice of backends) {
  const backend = choice.replace(/!$/, '');
  const results = choice.endsWith('!') ? [await runUnsupported(lib, base, backend, runtime)] : await runScenarios(lib, base, backend);
  for (const result of results) console.log(JSON.stringify(result));
}
