import { accessSync, constants, statSync, type Stats } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { describeValue } from './core/describe-value.js';
import { ConfigError } from './core/errors.js';

/**
 * Checks a file a download is to write (`Download.toFile`, `hb -o`) while the request is
 * configured, so that a target that can never be written fails before anything is sent (rather
 * than after the server has done the work). Synchronous stats: cheap, and done once per download.
 * `where` starts each message (`Download.toFile()`, `-o`).
 *
 * @throws {ConfigError} naming the problem.
 */
export function checkDownloadTarget(file: unknown, where: string): asserts file is string {
  if (typeof file !== 'string') throw new ConfigError(`${where} needs a string path, not ${describeValue(file)}`);
  if (file === '') throw new ConfigError(`${where}: the file must be a non-empty path`);
  // fs would refuse it only when the body arrives
  if (file.includes('\0')) throw new ConfigError(`${where}: the path contains a NUL byte`);
  // 'out/' names a folder: there is no file name to write to
  if (file.endsWith('/') || file.endsWith(sep)) throw new ConfigError(`${where}: '${file}' ends with a path separator, so it names a folder`);
  const folder = dirname(resolve(file));
  const folderInfo = statOrThrow(folder, where);
  if (folderInfo === undefined) throw new ConfigError(`${where}: the folder '${folder}' does not exist`);
  if (!folderInfo.isDirectory()) throw new ConfigError(`${where}: '${folder}' is not a folder`);
  const target = statOrThrow(file, where);
  if (target?.isDirectory() === true) throw new ConfigError(`${where}: '${file}' is a directory`);
  // a regular file (or a new one) is written beside the target, then renamed over it: the folder must take a new file
  if (target === undefined || target.isFile()) {
    try {
      accessSync(folder, constants.W_OK);
    } catch (error) {
      throw new ConfigError(`${where}: the folder '${folder}' cannot be written to`, { cause: error });
    }
  }
}

/** `statSync(path)`, undefined when nothing is there; any other failure (EACCES, ENOTDIR, ELOOP) is a ConfigError. */
function statOrThrow(path: string, where: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    throw new ConfigError(`${where}: cannot use '${path}' (${(error as { code?: string }).code ?? 'error'})`, { cause: error });
  }
}
