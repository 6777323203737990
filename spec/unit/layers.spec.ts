import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// The layers of lib/ (docs/architecture.md): a file imports only from its own layer or below,
// and no import cycle exists at all, type-only imports included.
const LAYERS: Readonly<Record<string, number>> = {
  core: 0, // errors, text and URL helpers, redaction
  model: 1, // the backend contract, RequestRecord, FromServer
  content: 2, // encoders, parsers, multipart
  result: 2, // result types and conversion
  config: 3, // what blocks write, and how levels merge
  pipeline: 4, // the call and its stages
  auth: 4,
  cookies: 4,
  cache: 4, // client.cache: the RFC 9111 cache and its stage
  proxy: 4, // client.proxy: routing, proxy credentials, the proxy stage
  backends: 4, // transports
  telemetry: 4, // httpbuilder-ts/opentelemetry: client.telemetry over the OpenTelemetry API
  cli: 5,
  testing: 5, // httpbuilder-ts/testing: the mock backend, HAR record and replay
  '': 5, // the client, the entry points and modules (lib/*.ts)
};

const LIB = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'lib');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import of `file` (static, type-only, re-export, for its effect or dynamic), as paths under lib/. */
function importsOf(file: string): string[] {
  return importsWithKind(file).map(([path]) => path);
}

/** {@link importsOf}, each with whether it is a type-only import (`import type`, `export type`), which leaves nothing at run time. */
function importsWithKind(file: string): Array<[path: string, typeOnly: boolean]> {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s([^;]*?)from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)|(?:^|\n)\s*import\s+'(\.[^']+)'/g)];
  return found.map((m) => [
    relative(LIB, normalize(join(dirname(file), (m[2] ?? m[3] ?? m[4]).replace(/\.js$/, '.ts')))),
    m[1] !== undefined && /^type\s/.test(m[1]),
  ]);
}

function layerOf(path: string): string {
  return path.includes('/') ? path.split('/')[0] : '';
}

const graph = new Map(sources(LIB).map((file) => [relative(LIB, file), importsOf(file)]));

/** The strongly connected components of more than one file (Tarjan): each is an import cycle. */
function cycles(): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do component.push((member = stack.pop()!));
    while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('lib/ layers', () => {
  it('knows every folder of lib/', () => {
    const folders = new Set([...graph.keys()].map(layerOf));
    expect([...folders].filter((folder) => !(folder in LAYERS))).toEqual([]);
  });

  it('imports only from the same layer or below', () => {
    const upward = [...graph].flatMap(([file, imports]) =>
      imports.filter((target) => LAYERS[layerOf(target)] > LAYERS[layerOf(file)]).map((target) => `${file} → ${target}`),
    );
    expect(upward).toEqual([]);
  });

  it('has no import cycle, type-only imports included', () => {
    expect(cycles()).toEqual([]);
  });

  it('keeps backends to transport: they import nothing of the pipeline, content, auth or the client', () => {
    const reaching = [...graph]
      .filter(([file]) => layerOf(file) === 'backends')
      .flatMap(([file, imports]) =>
        imports.filter((target) => !['core', 'model', 'backends', 'config'].includes(layerOf(target))).map((target) => `${file} → ${target}`),
      );
    expect(reaching).toEqual([]);
  });

  it('keeps the node platform out of the browser/Workers entry: browser.ts reaches none of what node-platform.ts plugs in', () => {
    // what browser.ts loads, now or later (dynamic imports included; type-only imports leave nothing)
    const reached = new Set<string>();
    const visit = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const [target, typeOnly] of importsWithKind(join(LIB, file))) if (!typeOnly) visit(target);
    };
    visit('browser.ts');
    const nodeParts = ['node-platform.ts', ...importsOf(join(LIB, 'node-platform.ts'))];
    expect(nodeParts.filter((file) => reached.has(file))).toEqual([]);
    // and it exports what the node entry exports: one list (public-api.ts)
    expect(importsOf(join(LIB, 'browser.ts'))).toEqual(['public-api.ts']);
    expect(importsOf(join(LIB, 'index.ts'))).toEqual(['node-platform.ts', 'public-api.ts']);
  });
});
