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

/** What to bundle: the scenario module (and the runtime checks, once the library bundles). */
export interface BundleInput {
  /** Absolute path of a module exporting `runScenarios(base, backend)`. */
  scenarios: string;
  /** Also run spec/browser/runtime-checks.ts (default backend, `native` refused). */
  runtimeChecks: boolean;
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

/** The entry module's text: the scenarios (and checks) handed to the page or Worker glue of runner.ts. */
function entrySource(target: keyof typeof conditions, input: BundleInput): string {
  const runners = input.runtimeChecks ? 'runScenarios, runRuntimeChecks' : 'runScenarios';
  return [
    `import { runScenarios } from ${JSON.stringify(input.scenarios)};`,
    input.runtimeChecks ? `import { runRuntimeChecks } from './runtime-checks.ts';` : '',
    `import { allOf, exposeToPage, workerFor } from './runner.ts';`,
    target === 'page' ? `exposeToPage(allOf(${runners}));` : `export default workerFor(allOf(${runners}));`,
  ].join('\n');
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
