import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { probeWebCore } from '../support/web-core-probe.js';

// The web paths of the core, run for real: the probe and what it imports, transpiled as they
// are, imported by a node process whose Buffer global is deleted first (a browser or a Worker
// has none). Each result must be what this process, with node's Buffer fast paths, computes.
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PROBE = join(ROOT, 'spec', 'support', 'web-core-probe.ts');
let out: string;

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'web-core-'));
  writeFileSync(join(out, 'package.json'), '{"type":"module"}');
  const pending = [PROBE];
  const done = new Set<string>();
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (done.has(file)) continue;
    done.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, specifier] of text.matchAll(/(?:from|import\(?)\s*'(\.[^']+)\.js'/g)) pending.push(join(dirname(file), `${specifier}.ts`));
    const target = join(out, relative(ROOT, file).replace(/\.ts$/, '.js'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText);
  }
});

afterAll(() => rmSync(out, { recursive: true, force: true }));

function withoutBuffer(): unknown {
  const script = [
    'delete globalThis.Buffer;',
    `const { probeWebCore } = await import(${JSON.stringify(join(out, 'spec', 'support', 'web-core-probe.js'))});`,
    'const result = probeWebCore();',
    "if (typeof Buffer !== 'undefined') throw new Error('the Buffer global is still there');",
    'process.stdout.write(JSON.stringify(result));',
  ].join('\n');
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as unknown;
}

describe('the core without a Buffer global (browsers, Workers)', () => {
  it('computes what node computes with its Buffer fast paths', () => {
    const expected = JSON.parse(JSON.stringify(probeWebCore())) as unknown;
    expect(expected).toMatchObject({
      basic: 'Basic SsOkc8O4bjpwOnc=',
      asStringWithBom: '\uFEFFh',
      reasons: ['Not Found', 'Unprocessable Content', ''],
      noProxy: [true, true, true, false],
    });
    expect(withoutBuffer()).toEqual(expected);
  });
});
