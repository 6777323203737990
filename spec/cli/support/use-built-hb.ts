import { beforeAll } from '@jest/globals';
import { builtCli } from './built-cli.js';
import { runHb, type HbResult, type RunOptions } from './run-hb.js';

/** What {@link useBuiltHb} gives: the built CLI and a way to run it. */
export interface BuiltHb {
  /** The path of the built `cli.js` (inside tests only). */
  readonly cli: string;
  /** Runs `hb ...args` with the options given to {@link useBuiltHb}. */
  readonly hb: (...args: string[]) => Promise<HbResult>;
}

/**
 * Jest helper: builds the CLI in `beforeAll` (once per source state, see {@link builtCli}) and
 * runs it with `options` (an environment, such as a HOME of the test's own).
 *
 * @example
 * const { hb } = useBuiltHb();
 * it('answers', async () => expect((await hb('get', url)).code).toBe(0));
 */
export function useBuiltHb(options: RunOptions = {}): BuiltHb {
  let cli: string | undefined;
  beforeAll(async () => {
    cli = await builtCli();
  }, 180_000);
  const built = (): string => {
    if (cli === undefined) throw new Error('useBuiltHb(): the CLI is only built inside tests');
    return cli;
  };
  return {
    get cli() {
      return built();
    },
    hb: (...args) => runHb(built(), args, options),
  };
}
