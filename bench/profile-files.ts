/**
 * Reading the `.cpuprofile` files and `run.json` that `profile.ts` leaves in a folder.
 *
 * @module
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** One node of a V8 CPU profile's call tree. */
export interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number; readonly columnNumber: number };
  readonly children?: readonly number[];
}

/** A V8 CPU profile (`--cpu-prof`). */
export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  /** µs on the monotonic clock (`process.hrtime`) when profiling began. */
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The newest main-thread profile (`CPU.<date>.<time>.<pid>.0.<seq>.cpuprofile`); thread 1+ is tsx's loader worker. */
export function newestProfile(dir: string): string {
  const files = readdirSync(dir).filter((f) => /\.0\.\d+\.cpuprofile$/.test(f));
  if (files.length === 0) throw new Error(`no main-thread .cpuprofile in ${dir}`);
  files.sort((a, b) => statSync(path.join(dir, b)).mtimeMs - statSync(path.join(dir, a)).mtimeMs);
  return path.join(dir, files[0]);
}

/** Reads a profile file. */
export function readProfile(file: string): CpuProfile {
  return JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
}

/** Sampled self time (µs) per profile node. */
export function selfTimes(profile: CpuProfile): Map<ProfileNode, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<ProfileNode, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    self.set(node, (self.get(node) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return self;
}

/**
 * A profile frame's URL, short: `undici/lib/...` for packages, paths relative to the repository
 * (`bench/...`, `dist/...`, or `lib/...` with `distAsLib` for the compiled library), `node:...`
 * as it is, `(native)` for none.
 */
export function shortLocation(url: string, distAsLib = false): string {
  const root = `file://${ROOT}`;
  const short = url.replace(/^.*\/node_modules\//, '');
  return (distAsLib ? short.replace(`${root}dist/`, 'lib/') : short).replace(root, '') || '(native)';
}


/** What `profile.ts` profiled (`run.json` beside the profile), if it wrote one. */
export function readRun(dir: string): { readonly contender: string; readonly requests: number } | undefined {
  const file = path.join(dir, 'run.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { contender: string; requests: number }) : undefined;
}
