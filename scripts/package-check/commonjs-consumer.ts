/**
 * The packaging check's CommonJS project (step 6 of scripts/check-package.ts): the tarball installed
 * into a fresh project without `"type": "module"`, set up for jest as `npx ts-jest config:init` does,
 * and then
 *
 * - the installed dist/cjs holds no `import(` and no `import.meta` (jest without ESM flags fails on both);
 * - jest runs a MockBackend test importing `httpbuilder-ts` and `httpbuilder-ts/testing`, with no ESM
 *   flag, and the lazily loaded backends, cookie jar and parsers work there (JEST_TEST);
 * - a plain `require()` script sends with every lazily loaded backend, got included;
 * - TypeScript compiles a CommonJS consumer against the installed declarations with each module
 *   setting (CJS_MODULE_SETTINGS).
 *
 * jest, ts-jest, TypeScript, nock and the optional peers are the repository's own, linked in rather
 * than installed: the same versions, in a second instead of a minute.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { check, NPM, sh, step } from './shell.js';
import { CJS_MODULE_SETTINGS, CJS_TS_CONSUMER, JEST_TEST, JEST_TESTS, JEST_TSCONFIG, REQUIRE_BACKENDS } from './commonjs-sources.js';

/** What the project's developer installs next to the package (`npm install --save-dev ...`), and the optional peers. */
const LINKED = ['jest', 'ts-jest', 'typescript', '@jest/globals', '@types/node', 'nock', 'axios', 'got', 'undici'];

interface JestReport {
  success: boolean;
  numPassedTests: number;
  numTotalTests: number;
}

export async function checkCommonJsConsumer(root: string, work: string, tarball: string, url: string): Promise<void> {
  const project = join(work, 'commonjs-consumer');
  await mkdir(project);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'commonjs-consumer', private: true }, null, 2));
  step('npm install of the tarball into a fresh CommonJS project');
  await sh(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], project);
  for (const name of LINKED) {
    const target = join(project, 'node_modules', name);
    check(!existsSync(target), `${name} was installed with the package`);
    await mkdir(dirname(target), { recursive: true });
    await symlink(join(root, 'node_modules', name), target, 'junction');
  }
  await checkNoDynamicImport(join(project, 'node_modules', 'httpbuilder-ts', 'dist', 'cjs'));

  step('jest with the default ts-jest setup (npx ts-jest config:init), no ESM flags');
  await sh(process.execPath, [join(project, 'node_modules', 'ts-jest', 'cli.js'), 'config:init'], project);
  const jestConfig = await readFile(join(project, 'jest.config.js'), 'utf8');
  check(/createDefaultPreset/.test(jestConfig) && /module\.exports/.test(jestConfig), `ts-jest config:init wrote an unexpected jest.config.js:\n${jestConfig}`);
  await writeFile(join(project, 'tsconfig.json'), JSON.stringify(JEST_TSCONFIG, null, 2));
  await mkdir(join(project, 'test'));
  await writeFile(join(project, 'test', 'client.test.ts'), JEST_TEST);
  const jest = join(project, 'node_modules', 'jest', 'bin', 'jest.js');
  const json = await sh(process.execPath, [jest, '--json', '--cacheDirectory', join(work, 'jest-cache')], project, { ...process.env, SERVER_URL: url });
  const report = JSON.parse(json) as JestReport;
  check(report.success && report.numPassedTests === JEST_TESTS, `jest passed ${report.numPassedTests} of ${report.numTotalTests} tests, not ${JEST_TESTS}`);

  step('require() with every lazily loaded backend');
  await writeFile(join(project, 'require-backends.js'), REQUIRE_BACKENDS);
  check((await sh(process.execPath, ['require-backends.js', url], project)).includes('require with every backend ok'), 'require-backends.js did not finish');

  step(
    `a CommonJS TypeScript consumer compiles with module ${CJS_MODULE_SETTINGS.map((s) => [s.module, s.moduleResolution].filter(Boolean).join('/')).join(', ')}`,
  );
  await writeFile(join(project, 'consumer.ts'), CJS_TS_CONSUMER);
  const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
  for (const [i, settings] of CJS_MODULE_SETTINGS.entries()) {
    const compilerOptions = { target: 'es2022', strict: true, esModuleInterop: true, noEmit: true, skipLibCheck: true, types: ['node'], ...settings };
    await writeFile(join(project, `tsconfig.${i}.json`), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }, null, 2));
  }
  // one process per setting, two at a time (CI has two cores)
  for (let i = 0; i < CJS_MODULE_SETTINGS.length; i += 2) {
    await Promise.all([i, i + 1].filter((j) => j < CJS_MODULE_SETTINGS.length).map((j) => sh(process.execPath, [tsc, '-p', `tsconfig.${j}.json`], project)));
  }
}

/** jest without ESM flags cannot run a dynamic `import()`, and `import.meta` is a syntax error in CommonJS. */
async function checkNoDynamicImport(folder: string): Promise<void> {
  const offenders: string[] = [];
  for (const file of await readdir(folder, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.js')) continue;
    // the code without its comments (which may well say "import (...)")
    const code = (await readFile(join(folder, file), 'utf8')).replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
    if (/\bimport\s*\(|\bimport\.meta\b/.test(code)) offenders.push(file);
  }
  check(offenders.length === 0, `dist/cjs uses import() or import.meta in ${offenders.join(', ')}`);
  const { type } = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as { type?: string };
  check(type === 'commonjs', `dist/cjs/package.json says "type": ${JSON.stringify(type)}, not "commonjs"`);
}
