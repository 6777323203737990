// The browser harness's own logic (npm run test:browsers runs it in Chromium and workerd): a plan
// never loses a row to a throw, and the report counts every row.
import { describe, expect, it } from '@jest/globals';
import type { Plan, ScenarioResult } from './outcome.js';
import { report } from './report.js';
import { planRunner, workerFor } from './runner.js';

const plan: Plan = { base: 'http://127.0.0.1:1', backends: ['fetch'], unsupported: ['native'], runtime: 'a browser' };
const passed = (backend: string, scenario: string): ScenarioResult => ({ backend, scenario, ok: true, ms: 1 });

describe('planRunner', () => {
  it('runs the scenarios on each backend, the ConfigError check on each unsupported one, then the extra checks, with the library passed through', async () => {
    const seen: unknown[] = [];
    const run = planRunner(
      'the library',
      {
        runScenarios: (lib, base, backend) => (seen.push([lib, base, backend]), Promise.resolve([passed(backend, 'typed GET')])),
        runUnsupported: (lib, _base, backend, runtime) => (
          seen.push([lib, backend, runtime]),
          Promise.resolve(passed(backend, `ConfigError naming ${runtime}`))
        ),
      },
      [() => Promise.resolve([passed('(default)', 'no backend set = fetch')])],
    );
    const results = await run(plan);
    expect(results.map((result) => `${result.backend} ${result.scenario} ${result.ok}`)).toEqual([
      'fetch typed GET true',
      'native ConfigError naming a browser true',
      '(default) no backend set = fetch true',
    ]);
    expect(seen).toEqual([
      ['the library', 'http://127.0.0.1:1', 'fetch'],
      ['the library', 'native', 'a browser'],
    ]);
  });

  it('a step that throws is one failed row naming the error, and the next steps still run', async () => {
    const run = planRunner(undefined, { runScenarios: () => Promise.reject(new TypeError('ReadableStream.from is not a function')) }, [
      () => Promise.resolve([passed('(default)', 'no backend set = fetch')]),
    ]);
    const results = await run(plan);
    expect(results.map(({ backend, scenario, ok, error }) => ({ backend, scenario, ok, error }))).toEqual([
      { backend: 'fetch', scenario: 'runScenarios', ok: false, error: 'TypeError: ReadableStream.from is not a function' },
      { backend: 'native', scenario: 'ConfigError naming a browser', ok: false, error: 'Error: the scenario module has no runUnsupported' },
      { backend: '(default)', scenario: 'no backend set = fetch', ok: true, error: undefined },
    ]);
  });

  it('as a Worker: the plan POSTed as JSON, the results answered as JSON', async () => {
    const worker = workerFor((given) => Promise.resolve([passed(given.backends[0], given.runtime)]));
    const response = await worker.fetch(new Request('http://worker.test/', { method: 'POST', body: JSON.stringify(plan) }));
    expect(await response.json()).toEqual([passed('fetch', 'a browser')]);
  });
});

describe('report', () => {
  it('one line per row under a header, failures with their error on one line, and the totals', () => {
    const failed: ScenarioResult = {
      backend: 'fetch',
      scenario: 'timeouts',
      ok: false,
      error: 'Error: Build failed with 1 error:\nlib/x.ts: node:crypto',
      ms: 3,
    };
    const { lines, passed: ok, failed: bad } = report([{ runtime: 'workerd', results: [passed('fetch', 'typed GET'), failed] }]);
    expect(lines).toEqual([
      'runtime  backend  scenario   result',
      'workerd  fetch    typed GET  pass  1 ms',
      'workerd  fetch    timeouts   FAIL  Error: Build failed with 1 error: | lib/x.ts: node:crypto',
    ]);
    expect([ok, bad]).toEqual([1, 1]);
  });
});
