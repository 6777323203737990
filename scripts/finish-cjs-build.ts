/**
 * The last step of `npm run build`, after the ESM build (dist/) and the CommonJS one (dist/cjs/):
 *
 * - dist/cjs/package.json says `"type": "commonjs"`, so Node (and jest) read dist/cjs/*.js as
 *   CommonJS inside a package whose own type is `module`;
 * - the declarations the ESM build emitted are copied, unchanged, beside each CommonJS file.
 *
 * Why copies of the one set of declarations, not the same files for both: TypeScript judges a .d.ts
 * ESM or CommonJS by its folder's package.json, as Node does the .js beside it. Read as ESM from a
 * CommonJS project, `import ... from 'httpbuilder-ts'` is an error under `module: node16` (TS1479), and
 * under `nodenext` the types of a dual package they name (tough-cookie's `CookieJar`, axios'
 * `AxiosInstance`) resolve to that package's ESM declarations while the project's own imports get
 * the CommonJS ones: a project's `new CookieJar()` would not fit `client.cookies`.
 */
import { copyFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'dist');
const CJS = join(DIST, 'cjs');

if (!existsSync(join(CJS, 'index.js'))) throw new Error(`${CJS} has no index.js: run tsc -p tsconfig.cjs.json first`);
writeFileSync(join(CJS, 'package.json'), '{ "type": "commonjs" }\n');
// a declaration goes where its CommonJS module is (the `hb` bin has none: it stays ESM)
for (const file of readdirSync(DIST, { recursive: true, encoding: 'utf8' })) {
  const twin = join(CJS, file);
  if (file.endsWith('.d.ts') && !file.startsWith(`cjs${sep}`) && existsSync(twin.replace(/\.d\.ts$/, '.js'))) copyFileSync(join(DIST, file), twin);
}
