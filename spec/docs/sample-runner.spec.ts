// The docs sample runner must be able to fail: these check that a broken sample, a sample that
// reaches for a real host, a hanging one, missing output and a type error are all caught.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scanMarkdown, type DocSample } from '../support/doc-samples.js';
import { installDocFixtures } from '../support/doc-fixtures.js';
import { SampleRunner, type OriginMapping } from '../support/sample-runner.js';
import { useTestServer } from '../support/use-test-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const holder = useTestServer();
let runner: SampleRunner;
let cwd: string;
beforeAll(() => {
  runner = new SampleRunner(ROOT, join(ROOT, 'spec', 'docs', '.samples', 'runner-spec'));
  cwd = mkdtempSync(join(tmpdir(), 'hb-sample-runner-'));
});
afterAll(() => {
  runner.dispose();
  rmSync(cwd, { recursive: true, force: true });
});

const origins = (): OriginMapping[] => [{ placeholder: 'api.example.com', target: holder.server.httpUrl }];
let line = 0;
const sample = (code: string, expectedOutput: string[] = []): DocSample => ({ file: 'docs/test.md', line: ++line * 10, code, expectedOutput });
const run = (s: DocSample, timeoutMs = 5_000) => {
  installDocFixtures(holder.server);
  return runner.run(s, origins(), { timeoutMs, cwd });
};

const GET_HELLO = `
import { HttpBuilder } from 'httpbuilder-ts';
const http = HttpBuilder.configure((c) => { c.request.uri = 'https://api.example.com'; });
try {
  console.log(await http.get(String, (c) => { c.request.uri.path = '/hello'; }));
} finally {
  await http.close();
}`;

describe('scanning markdown', () => {
  it('finds ts blocks with their line and expected output', () => {
    const scan = scanMarkdown(['# T', '', '<!-- sample: expects-output "a \\"b\\"" -->', '```ts', 'x();', '```'].join('\n'), 'f.md');
    expect(scan.problems).toEqual([]);
    expect(scan.samples).toEqual([{ file: 'f.md', line: 4, code: 'x();', expectedOutput: ['a "b"'] }]);
  });

  it('reports a block that is not run without a reason, a skipped ts block, an unknown directive and a stray one', () => {
    const scan = scanMarkdown(
      [
        '```sh',
        'ls',
        '```',
        '<!-- sample: skip-reason no -->',
        '```ts',
        'x',
        '```',
        '<!-- sample: run-later -->',
        '```text',
        '```',
        '<!-- sample: skip-reason x -->',
        'prose',
      ].join('\n'),
      'f.md',
    );
    expect(scan.problems).toEqual([
      'f.md:1: a ```sh block is not run: make it ```ts, or put <!-- sample: skip-reason ... --> before it',
      'f.md:5: a ts sample cannot be skipped (skip-reason is for shell and text blocks only)',
      "f.md:8: unknown sample directive 'run-later' (known: expects-output, skip-reason, hb)",
      'f.md:9: a ```text block is not run: make it ```ts, or put <!-- sample: skip-reason ... --> before it',
      'f.md:11: a sample directive must come right before a fenced block',
    ]);
  });
});

describe('running a sample', () => {
  it('passes a sample that talks to the placeholder origin, and shows its output', async () => {
    const outcome = await run(sample(GET_HELLO, ['Hello, world']));
    expect(outcome.output).toBe('Hello, world');
    expect(holder.server.requests.map((r) => r.path)).toEqual(['/hello']);
  });

  it('fails a sample that throws', async () => {
    await expect(run(sample(GET_HELLO.replace("'/hello'", "'/no-such-route'")))).rejects.toThrow(/docs\/test\.md:\d+ failed: HttpException: Not Found/);
  });

  it('fails a sample whose output lacks an expected text', async () => {
    await expect(run(sample(GET_HELLO, ['Goodbye']))).rejects.toThrow(/the output lacks "Goodbye"/);
  });

  it('fails, without any DNS lookup or connection, a sample that reaches for another host', async () => {
    const s = sample(GET_HELLO.replace('api.example.com', 'example.org'));
    await expect(run(s)).rejects.toThrow(/it tried to reach example\.org/);
  });

  it('fails a sample that reaches for another host even when it swallows the error', async () => {
    const code = `
import { HttpBuilder } from 'httpbuilder-ts';
const http = HttpBuilder.configure((c) => { c.request.uri = 'https://example.org'; });
await http.get().catch(() => 'ignored');
await http.close();`;
    await expect(run(sample(code))).rejects.toThrow(/tried to reach example\.org/);
  });

  it('fails a sample that does not complete in time', async () => {
    await expect(run(sample('await new Promise((resolve) => setTimeout(resolve, 2_000));'), 200)).rejects.toThrow(/did not complete within 200 ms/);
  });

  it('fails an import of an entry point the package does not export', async () => {
    await expect(run(sample("import { X } from 'httpbuilder-ts/nothing';\nconsole.log(X);"))).rejects.toThrow(/which package.json does not export/);
  });
});

describe('type-checking samples', () => {
  it('reports a type error at its line in the markdown file', () => {
    const checker = new SampleRunner(ROOT, join(ROOT, 'spec', 'docs', '.samples', 'runner-spec-types'));
    try {
      checker.fileOf(
        {
          file: 'docs/t.md',
          line: 5,
          code: "import { HttpBuilder } from 'httpbuilder-ts';\nconst n: number = HttpBuilder;\nconsole.log(n);",
          expectedOutput: [],
        },
        origins(),
      );
      expect(checker.typecheck()).toEqual([expect.stringMatching(/^docs\/t\.md:7: TS2322: /)]);
    } finally {
      checker.dispose();
    }
  }, 60_000);
});

describe('hb command blocks', () => {
  const hbBlock = (directive: string, ...commands: string[]) => scanMarkdown([directive, '```sh', ...commands, '```'].join('\n'), 'cli.md');

  it('are split as a shell would, with the exit code the directive declares', () => {
    const scan = hbBlock('<!-- sample: hb exit 4 -->', 'hb get https://api.example.com/x -H \'X-A: b c\' --json "{}"   # a comment', '', 'hb head x');
    expect(scan.problems).toEqual([]);
    expect(scan.hbSamples).toEqual([
      {
        file: 'cli.md',
        line: 2,
        exitCode: 4,
        expectedOutput: [],
        commands: [
          ['get', 'https://api.example.com/x', '-H', 'X-A: b c', '--json', '{}'],
          ['head', 'x'],
        ],
      },
    ]);
  });

  it('refuse what a shell would do besides running hb, other commands, and a bad directive', () => {
    expect(hbBlock('<!-- sample: hb -->', 'hb get x | jq .').problems).toEqual([expect.stringContaining("'|' outside quotes")]);
    expect(hbBlock('<!-- sample: hb -->', 'curl x').problems).toEqual([expect.stringContaining('starts with hb')]);
    expect(hbBlock('<!-- sample: hb -->', 'hb get "$URL"').problems).toEqual([expect.stringContaining('double-quoted')]);
    // a bad directive leaves the block unrun, which is a problem of its own
    expect(hbBlock('<!-- sample: hb exit -->', 'hb get x').problems).toEqual([
      expect.stringContaining("'exit N'"),
      expect.stringContaining('block is not run'),
    ]);
    expect(hbBlock('<!-- sample: hb -->').problems).toEqual([expect.stringContaining('at least one hb command')]);
  });

  it('fail when a command exits with another code or the output is missing', async () => {
    const { builtCli } = await import('../cli/support/built-cli.js');
    const { runHbSample } = await import('../support/hb-samples.js');
    const cli = await builtCli();
    installDocFixtures(holder.server);
    const ok = hbBlock('<!-- sample: hb -->', 'hb get https://api.example.com/hello').hbSamples[0];
    await expect(runHbSample(ok, cli, origins(), cwd)).resolves.toBeUndefined();
    installDocFixtures(holder.server);
    const missing = { ...ok, expectedOutput: ['Goodbye'] };
    await expect(runHbSample(missing, cli, origins(), cwd)).rejects.toThrow(/lacks "Goodbye"/);
    installDocFixtures(holder.server);
    const notFound = hbBlock('<!-- sample: hb -->', 'hb get https://api.example.com/nowhere').hbSamples[0];
    await expect(runHbSample(notFound, cli, origins(), cwd)).rejects.toThrow(/exited with 4, not 0/);
    const badOption = hbBlock('<!-- sample: hb -->', 'hb get https://api.example.com/hello --no-such-option').hbSamples[0];
    await expect(runHbSample(badOption, cli, origins(), cwd)).rejects.toThrow(/exited with 2, not 0/);
  }, 120_000);
});
