// Every ```ts sample in README.md and docs/*.md runs here, against the local test server
// (https://api.example.com in a sample is sent to it; any other host is refused), and
// type-checks; every hb command block runs with the built CLI. See spec/support/sample-runner.ts,
// spec/support/hb-samples.ts and spec/support/doc-fixtures.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtCli } from '../cli/support/built-cli.js';
import { docFiles, scanDocs } from '../support/doc-samples.js';
import { runHbSample } from '../support/hb-samples.js';
import { installDocFixtures, writeSandboxFiles } from '../support/doc-fixtures.js';
import { SampleRunner, type OriginMapping } from '../support/sample-runner.js';
import { TestServer } from '../support/test-server.js';
import { expectNoUnhandledRejections } from '../support/unhandled-rejections.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { samples, hbSamples, problems } = scanDocs(ROOT, docFiles(ROOT));

expectNoUnhandledRejections();
let server: TestServer;
let runner: SampleRunner;
let sandbox: string;
const origins = (): OriginMapping[] => [{ placeholder: 'api.example.com', target: server.httpUrl }];

beforeAll(async () => {
  server = await TestServer.start();
  runner = new SampleRunner(ROOT, join(ROOT, 'spec', 'docs', '.samples', 'docs'));
  sandbox = mkdtempSync(join(tmpdir(), 'hb-doc-samples-'));
});
afterAll(async () => {
  await server.close();
  runner.dispose();
  rmSync(sandbox, { recursive: true, force: true });
});
beforeEach(async () => {
  // a sample that failed (or leaked a client) leaves connections open: start afresh, so
  // only that sample fails; the fixtures are installed anew for every sample
  if (server.openConnections > 0) {
    await server.close();
    server = await TestServer.start();
  }
  server.reset();
  installDocFixtures(server);
  writeSandboxFiles(sandbox);
});

it('finds the samples, and every fenced block is either run or says why not', () => {
  expect(problems).toEqual([]);
  expect(samples.length).toBeGreaterThan(0);
});

for (const file of [...new Set(samples.map((s) => s.file))]) {
  describe(file, () => {
    for (const sample of samples.filter((s) => s.file === file)) {
      it(`the sample at line ${sample.line} runs`, async () => {
        try {
          await runner.run(sample, origins(), { timeoutMs: 10_000, cwd: sandbox });
        } catch (error) {
          const unmatched = server.requests.filter((r) => !r.matched).map((r) => `${r.method} ${r.target}`);
          if (unmatched.length === 0) throw error;
          throw new Error(
            `${(error as Error).message}\nrequests no fixture route answered (404): ${unmatched.join(', ')} — add routes in spec/support/doc-fixtures.ts`,
            { cause: error },
          );
        }
        const leftOpen = await settledConnections(() => server.openConnections);
        if (leftOpen > 0) throw new Error(`${file}:${sample.line} left ${leftOpen} connection(s) open: end the sample with await http.close()`);
      }, 15_000);
    }
  });
}

describe('hb command blocks', () => {
  let cli: string;
  beforeAll(async () => {
    cli = await builtCli();
  }, 120_000);

  for (const sample of hbSamples) {
    it(`${sample.file}:${sample.line}: ${sample.commands.length} hb command(s) exit with ${sample.exitCode}`, async () => {
      await runHbSample(sample, cli, origins(), sandbox);
    }, 60_000);
  }
});

it('every sample type-checks', () => {
  for (const sample of samples) runner.fileOf(sample, origins());
  expect(runner.typecheck()).toEqual([]);
}, 120_000);

/** The server's open connections once the client side had a moment to close them (0 as soon as it is). */
async function settledConnections(count: () => number): Promise<number> {
  for (let waited = 0; count() > 0 && waited < 1_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  return count();
}
