import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// Auth's code loads when it is used (issue #38, the browser bundle): the schemes at the first
// call with credentials, Digest's hashes at the first Digest challenge. What a module imports
// statically loads with it (and goes in the same bundle chunk); an `import()` loads later.
const LIB = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'lib');

/** The relative imports of a lib/ file that load with it (`import type` leaves nothing at run time), and those it loads later with `import()`. */
function importsOf(file: string): { static: string[]; dynamic: string[] } {
  const source = ts.createSourceFile(file, readFileSync(join(LIB, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found = { static: [] as string[], dynamic: [] as string[] };
  const resolved = (specifier: string) => relative(LIB, normalize(join(LIB, dirname(file), specifier.replace(/\.js$/, '.ts'))));
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly = ts.isImportDeclaration(node) ? node.importClause?.isTypeOnly === true : node.isTypeOnly;
      if (!typeOnly && node.moduleSpecifier.text.startsWith('.')) found.static.push(resolved(node.moduleSpecifier.text));
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments;
      if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.')) found.dynamic.push(resolved(specifier.text));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every lib/ file that loads with `entry` (itself included). */
function loadedWith(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of importsOf(file).static) visit(imported);
  };
  visit(entry);
  return seen;
}

const authFiles = (files: Set<string>) => [...files].filter((file) => file.startsWith('auth/')).sort();
const DIGEST = ['auth/digest.ts', 'auth/digest-math.ts', 'auth/md5.ts', 'auth/sha256.ts', 'auth/sha512.ts'];

describe('what of auth loads when', () => {
  it('an application on the browser entry loads no auth until its first request, then only the auth stage until a call has credentials', () => {
    expect(authFiles(loadedWith('browser.ts'))).toEqual([]);
    expect(importsOf('pipeline/call-modules.ts').dynamic).toEqual(['pipeline/call-entry.ts']);
    expect(authFiles(loadedWith('pipeline/call-entry.ts'))).toEqual(['auth/auth-stage.ts']);
  });

  it('the stage loads bearer and Basic/Digest on first use, neither with the hashes of Digest', () => {
    expect(importsOf('auth/auth-stage.ts').dynamic.sort()).toEqual(['auth/bearer.ts', 'auth/challenge-answers.ts']);
    expect(authFiles(loadedWith('auth/bearer.ts'))).toEqual(['auth/bearer-refreshes.ts', 'auth/bearer.ts']);
    const answers = loadedWith('auth/challenge-answers.ts');
    for (const file of DIGEST) expect(answers).not.toContain(file);
    expect(importsOf('auth/challenge-answers.ts').dynamic).toEqual(['auth/digest.ts']);
  });

  it('sees what loads with a module (the check itself): the node cache reads Digest answers with its hashes', () => {
    const cache = loadedWith('cache/digest-identity.ts');
    for (const file of DIGEST.filter((file) => file !== 'auth/digest.ts')) expect(cache).toContain(file);
    expect(importsOf('auth/auth-cache.ts').static).toEqual([]); // its imports are types only
  });
});
