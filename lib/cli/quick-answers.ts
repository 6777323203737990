import { parseCommandLine } from './args.js';
import { HELP_TEXT, VERSION_TEXT } from './help.js';
import { helpText } from './help-topics.js';

/**
 * What `hb` prints for `argv` when it asks for help or the version (`--help`, `-h`, `help
 * <topic>`, `--version`), read without loading the library's request machinery: a start of
 * `hb --version` costs little more than node's own. Undefined for anything else (a request, a
 * usage error, an unknown topic): `run()` (run.ts) parses `argv` again with the node platform
 * loaded and answers it, as it always did.
 *
 * @example
 * helpOrVersionText(['--version']); // → 'hb (httpbuilder-ts) 1.2.3\n'
 * helpOrVersionText(['get', 'localhost:8080']); // → undefined
 */
export function helpOrVersionText(argv: readonly string[]): string | undefined {
  try {
    const command = parseCommandLine(argv);
    if (command.kind === 'version') return VERSION_TEXT;
    if (command.kind === 'help') return command.topic === undefined ? HELP_TEXT : helpText(command.topic);
  } catch {
    // reported by run(), exactly as before
  }
  return undefined;
}
