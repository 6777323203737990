/**
 * Bundles what the page and the Worker run, as the browser build of the library would be bundled:
 * esbuild, `--platform=browser --format=esm`, `httpbuilder-ts` (and the node entry lib/index.ts,
 * which the scenarios may import by path) resolved to the browser entry lib/browser.ts.
 */
import { build, type Plugin } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const browserEntry = `${root}lib/browser.ts`;
const nodeEntry = /[\\/]lib[\\/]index\.(js|ts)$/;

/** The conditions a bundler for each target picks (workerd's own first, as wrangler does). */
const conditions = { page: ['browser'], worker: ['workerd', 'worker', 'browser'] } as const;

/** What to bundle: the scenario module, and the library unless `--smoke` leaves it out. */
export interface BundleInput {
  /** Absolute path of a module exporting `runScenarios(lib, base, backend)` (and `runUnsupported`). */
  scenarios: string;
  /** Bundle the library (its browser entry and `httpbuilder-ts/stream`) and the runtime checks. */
  library: boolean;
}

// `import 'httpbuilder-ts'` and `import '../../lib/index.js'` both mean the browser entry here
const toBrowserEntry: Plugin = {
  name: 'httpbuilder-ts browser entry',
  setup(bundle) {
    bundle.onResolve({ filter: /^httpbuilder-ts$/ }, () => ({ path: browserEntry }));
    bundle.onResolve({ filter: nodeEntry }, (args) => {
      const resolved = new URL(args.path, `file://${args.resolveDir}/`).pathname;
      return resolved === `${root}lib/index.js` || resolved === `${root}lib/index.ts` ? { path: browserEntry } : undefined;
    });
  },
};

/** The entry module's text: the library and the scenarios handed to the page or Worker glue of runner.ts. */
function entrySource(target: keyof typeof conditions, input: BundleInput): string {
  const lines = [`import * as scenarios from ${JSON.stringify(input.scenarios)};`, `import { planRunner, exposeToPage, workerFor } from './runner.ts';`];
  if (input.library) {
    lines.push(
      `import * as library from '../../lib/index.ts';`,
      `import { Stream } from '../../lib/stream.ts';`,
      `import { runRuntimeChecks } from './runtime-checks.ts';`,
      `const run = planRunner({ ...library, Stream }, scenarios, [runRuntimeChecks]);`,
    );
  } else {
    lines.push(`const run = planRunner(undefined, scenarios);`);
  }
  lines.push(target === 'page' ? `exposeToPage(run);` : `export default workerFor(run);`);
  return lines.join('\n');
}

/** One ESM file of JavaScript for `target`; esbuild's errors (a `node:` import, say) reject, all of them listed. */
export async function bundleFor(target: keyof typeof conditions, input: BundleInput): Promise<string> {
  const result = await build({
    stdin: { contents: entrySource(target, input), resolveDir: `${root}spec/browser`, sourcefile: `${target}-entry.ts`, loader: 'ts' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    conditions: [...conditions[target]],
    plugins: [toBrowserEntry],
    write: false,
    logLevel: 'silent',
    logLimit: 0,
  });
  return result.outputFiles[0].text;
}
