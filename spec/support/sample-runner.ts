// Runs documentation samples (see doc-samples.ts) as real code against the local test server.
//
// Each sample becomes a module file in a scratch directory inside the repository, with its
// `httpbuilder-ts` imports pointed at the library sources in lib/ and its placeholder origin
// (https://api.example.com) pointed at the test server. The module is imported (ts-jest
// transpiles it like any spec file); it passes when it completes without throwing, within the
// time limit, with the expected console output, without trying to reach any other host.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { format, inspect } from 'node:util';
import ts from 'typescript';
import type { DocSample } from './doc-samples.js';
import { runCollected } from './sample-test-shim.js';

/** A placeholder origin a sample may use, and where its requests really go. */
export interface OriginMapping {
  /** The host name written in the docs, e.g. `api.example.com` (any scheme, user info and path around it). */
  readonly placeholder: string;
  /** The origin requests go to instead, e.g. `http://127.0.0.1:41234`. */
  readonly target: string;
}

/** What one run of a sample printed. */
export interface SampleOutcome {
  /** Everything written with console.log/info/warn/error, one call a line, with target origins shown as their placeholders. */
  readonly output: string;
}

/** What a sample's `@jest/globals` and `node:test` imports become (see that file). */
const TEST_SHIM = fileURLToPath(new URL('./sample-test-shim.ts', import.meta.url));

/** Hosts a sample may connect to: the local test server only. */
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);
const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug'] as const;

/** Writes, type-checks and runs documentation samples. */
export class SampleRunner {
  readonly #root: string;
  readonly #dir: string;
  readonly #entries: ReadonlyMap<string, string>;
  readonly #files = new Map<DocSample, string>();

  /** `root`: the repository; `dir`: a scratch directory (inside the repository, removed by {@link dispose}). */
  constructor(root: string, dir: string) {
    this.#root = root;
    this.#dir = dir;
    this.#entries = packageEntries(root);
    mkdirSync(dir, { recursive: true });
  }

  /** The module file of a sample, written on first use with imports and origins rewritten. */
  fileOf(sample: DocSample, origins: readonly OriginMapping[]): string {
    let file = this.#files.get(sample);
    if (file === undefined) {
      file = join(this.#dir, `${sample.file.replace(/[^A-Za-z0-9]+/g, '-')}-${sample.line}-${this.#files.size}.ts`);
      writeFileSync(file, this.#rewrite(sample, file, origins));
      this.#files.set(sample, file);
    }
    return file;
  }

  /**
   * Runs a sample: imports its module and waits for it (top-level await included). Rejects with
   * what the sample threw, when it takes longer than `timeoutMs`, when it tried to reach a host
   * other than the test server, or when its output lacks an expected text.
   */
  async run(sample: DocSample, origins: readonly OriginMapping[], options: { timeoutMs: number; cwd: string }): Promise<SampleOutcome> {
    const file = this.fileOf(sample, origins);
    const lines: string[] = [];
    const blocked: string[] = [];
    const restoreConsole = captureConsole(lines);
    const restoreNetwork = guardNetwork(blocked);
    const cwd = process.cwd();
    process.chdir(options.cwd);
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the sample did not complete within ${options.timeoutMs} ms`)), options.timeoutMs);
      });
      // a sample written as tests (jest, node:test) defines them as it runs: they run after it
      await Promise.race([import(pathToFileURL(file).href).then(runCollected), timeout]);
    } catch (error) {
      throw new Error(`${where(sample)} failed: ${describeError(error)}${blockedNote(blocked)}\n--- output ---\n${shown(lines, origins)}`, { cause: error });
    } finally {
      clearTimeout(timer);
      process.chdir(cwd);
      restoreNetwork();
      restoreConsole();
    }
    const output = shown(lines, origins);
    if (blocked.length > 0)
      throw new Error(`${where(sample)} tried to reach ${blocked.join(', ')}: samples may only use the placeholder origins${blockedNote(blocked)}`);
    let from = 0;
    for (const expected of sample.expectedOutput) {
      const at = output.indexOf(expected, from);
      if (at < 0)
        throw new Error(
          `${where(sample)}: the output lacks ${JSON.stringify(expected)}${from > 0 ? ' (after the texts expected before it)' : ''}\n--- output ---\n${output}`,
        );
      from = at + expected.length;
    }
    return { output };
  }

  /**
   * Type-checks every sample written so far, with the repository's compiler options. Returns one
   * line per error, located in the markdown file (`docs/x.md:12: ...`).
   */
  typecheck(): string[] {
    const files = new Map([...this.#files].map(([sample, file]) => [file, sample]));
    const configFile = ts.getParsedCommandLineOfConfigFile(
      join(this.#root, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
          throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
        },
      },
    );
    if (!configFile) throw new Error('tsconfig.json could not be read');
    const options: ts.CompilerOptions = {
      ...configFile.options,
      noEmit: true,
      declaration: false,
      declarationMap: false,
      sourceMap: false,
      incremental: false,
    };
    const program = ts.createProgram([...files.keys()], options);
    const problems: string[] = [];
    for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
      const sample = diagnostic.file && files.get(diagnostic.file.fileName);
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      if (!diagnostic.file) {
        problems.push(`(no file): ${message}`);
        continue;
      }
      if (!sample) continue; // the library's own errors are the typecheck script's business
      const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      problems.push(`${sample.file}:${sample.line + 1 + line}: TS${diagnostic.code}: ${message}`);
    }
    return problems;
  }

  /** Removes the scratch directory. */
  dispose(): void {
    rmSync(this.#dir, { recursive: true, force: true });
  }

  #rewrite(sample: DocSample, file: string, origins: readonly OriginMapping[]): string {
    let code = sample.code.replace(/(['"])(httpbuilder-ts(?:\/[^'"]*)?)\1/g, (_, quote: string, specifier: string) => {
      const target = this.#entries.get(specifier);
      if (target === undefined)
        throw new Error(`${where(sample)} imports '${specifier}', which package.json does not export (known: ${[...this.#entries.keys()].join(', ')})`);
      let path = relative(dirname(file), target).replace(/\\/g, '/');
      if (!path.startsWith('.')) path = `./${path}`;
      return `${quote}${path}${quote}`;
    });
    // tests for jest or node's test runner: collected by a stand-in, run by run()
    let shim = relative(dirname(file), TEST_SHIM).replace(/\\/g, '/');
    if (!shim.startsWith('.')) shim = `./${shim}`;
    code = code.replace(/(['"])(@jest\/globals|node:test)\1/g, (_, quote: string) => `${quote}${shim.replace(/\.ts$/, '.js')}${quote}`);
    for (const { placeholder, target } of origins) {
      const { protocol, host } = new URL(target);
      const pattern = new RegExp(`https?://((?:[^\\s/'"\`@]*@)?)${placeholder.replace(/[.]/g, '\\.')}(?![\\w.-])`, 'g');
      code = code.replace(pattern, (_, userInfo: string) => `${protocol}//${userInfo}${host}`);
    }
    // a module even without imports (top-level await needs one); same line numbers as the markdown
    return `${code}\nexport {};\n`;
  }
}

/** The package's entry points (`httpbuilder-ts`, `httpbuilder-ts/download`, ...) → their sources in lib/, from package.json `exports`. */
function packageEntries(root: string): Map<string, string> {
  type Target = string | { default?: string; import?: { default?: string } };
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; exports: Record<string, Target> };
  const entries = new Map<string, string>();
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    // the ESM build's file (`import` condition): the samples are ESM
    const built = typeof target === 'string' ? target : (target.import?.default ?? target.default);
    if (built === undefined || !/^\.\/dist\/.*\.js$/.test(built)) continue; // ./package.json
    entries.set(subpath === '.' ? pkg.name : `${pkg.name}${subpath.slice(1)}`, join(root, built.replace(/^\.\/dist\//, 'lib/')));
  }
  return entries;
}

/** Collects console output into `lines` until the returned function restores the console. */
function captureConsole(lines: string[]): () => void {
  const originals = CONSOLE_METHODS.map((method) => [method, Reflect.get(console, method) as unknown] as const);
  for (const method of CONSOLE_METHODS) console[method] = (...args: unknown[]) => void lines.push(format(...args));
  return () => {
    for (const [method, original] of originals) Reflect.set(console, method, original);
  };
}

/**
 * Refuses every TCP connection to a host other than the local test server (before any DNS
 * lookup), recording the host in `blocked`: a sample that reaches for the internet fails at
 * once instead of hanging. Covers every backend (node:http, axios, got, undici all connect
 * through net.Socket). Returns the function that lifts the guard.
 */
export function guardNetwork(blocked: string[]): () => void {
  const original = Reflect.get(net.Socket.prototype, 'connect') as (this: net.Socket, ...args: unknown[]) => net.Socket;
  function guardedConnect(this: net.Socket, ...args: unknown[]): net.Socket {
    const host = targetHost(args);
    if (host === undefined || LOCAL_HOSTS.has(host)) return original.apply(this, args);
    blocked.push(host);
    const error = Object.assign(new Error(`connect ECONNREFUSED ${host} (docs samples may only reach the local test server)`), { code: 'ECONNREFUSED' });
    process.nextTick(() => this.destroy(error));
    return this;
  }
  Reflect.set(net.Socket.prototype, 'connect', guardedConnect);
  return () => {
    Reflect.set(net.Socket.prototype, 'connect', original);
  };
}

/** The host of a `socket.connect(...)` call, or undefined for a local IPC path. */
function targetHost(args: unknown[]): string | undefined {
  const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0]; // node passes normalized [options, cb]
  if (typeof first === 'object' && first !== null) {
    const options = first as { host?: string | null; path?: string | null };
    if (typeof options.path === 'string') return undefined; // node sets path: null for TCP
    return options.host ?? 'localhost';
  }
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) return typeof args[1] === 'string' ? args[1] : 'localhost';
  return undefined; // a path
}

function shown(lines: readonly string[], origins: readonly OriginMapping[]): string {
  let text = lines.join('\n');
  for (const { placeholder, target } of origins) text = text.split(target).join(`https://${placeholder}`);
  return text;
}

function where(sample: DocSample): string {
  return `the sample at ${sample.file}:${sample.line}`;
}

function blockedNote(blocked: readonly string[]): string {
  return blocked.length === 0 ? '' : ` (it tried to reach ${blocked.join(', ')}: use https://api.example.com, which the tests serve locally)`;
}

function describeError(error: unknown): string {
  return error instanceof Error ? inspect(error, { depth: 4 }) : String(error);
}
