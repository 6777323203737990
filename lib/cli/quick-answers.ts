import { HELP_TEXT, VERSION_TEXT } from './help.js';

// the commonest asks, one flag alone: answered without even loading the argument parser
const ALONE: Readonly<Record<string, string>> = { '--version': VERSION_TEXT, '--help': HELP_TEXT, '-h': HELP_TEXT };

/**
 * What `hb` prints for `argv` when it asks for help or the version (`--help`, `-h`, `help
 * <topic>`, `--version`), read without loading the library's request machinery: a start of
 * `hb --version` costs little more than node's own. Undefined for anything else (a request, a
 * usage error, an unknown topic): `run()` (run.ts) parses `argv` again with the node platform
 * loaded and answers it, as it always did.
 *
 * @example
 * await helpOrVersionText(['--version']); // → 'hb (httpbuilder-ts) 1.2.3\n'
 * await helpOrVersionText(['get', 'localhost:8080']); // → undefined
 */
export async function helpOrVersionText(argv: readonly string[]): Promise<string | undefined> {
  if (argv.length === 1 && Object.hasOwn(ALONE, argv[0])) return ALONE[argv[0]];
  // one after the other: jest's ESM loader can fail two imports linking the same graph at once
  const { parseCommandLine } = await import('./args.js');
  const { helpText } = await import('./help-topics.js');
  try {
    const command = parseCommandLine(argv);
    if (command.kind === 'version') return VERSION_TEXT;
    if (command.kind === 'help') return command.topic === undefined ? HELP_TEXT : helpText(command.topic);
  } catch {
    // reported by run(), exactly as before
  }
  return undefined;
}
