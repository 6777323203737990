// What a documentation sample written for jest (`@jest/globals`) or for node's test runner
// (`node:test`) imports instead when it runs in spec/docs/samples.spec.ts (a test cannot start
// a test runner of its own): its tests are collected as the module runs, then run in order by
// `runCollected`, each between its beforeEach and afterEach hooks. The first failure fails the
// sample, naming its test.
export { expect } from 'expect';

type Hook = () => unknown;
interface Collected {
  readonly name: string;
  readonly fn: Hook;
  readonly before: readonly Hook[];
  readonly after: readonly Hook[];
}

const collected: Collected[] = [];
// the hooks of the describe block being defined (a nested block starts with its parent's)
let before: Hook[] = [];
let after: Hook[] = [];

/** Groups tests; its hooks apply to the tests inside it only. */
export function describe(name: string, define: () => void): void {
  const outer = [before, after];
  [before, after] = [[...before], [...after]];
  try {
    define();
  } finally {
    [before, after] = outer;
  }
}

/** Collects a test (named `test` too, as `node:test` and jest both export it). */
export function it(name: string, fn: Hook): void {
  collected.push({ name, fn, before, after });
}
export const test = it;

export function beforeEach(hook: Hook): void {
  before.push(hook);
}

export function afterEach(hook: Hook): void {
  after.push(hook);
}

/** Runs the tests collected so far, in order; rejects with the first failure, naming its test. */
export async function runCollected(): Promise<number> {
  const tests = collected.splice(0);
  for (const { name, fn, before: setUp, after: tearDown } of tests) {
    try {
      for (const hook of setUp) await hook();
      await fn();
    } catch (error) {
      throw new Error(`its test '${name}' failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    } finally {
      for (const hook of tearDown) await hook();
    }
  }
  return tests.length;
}
