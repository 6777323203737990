import type { HbResult } from './run-hb.js';

/** What a run of hb came to, in one object, so that a failing expectation shows all three. */
export interface HbOutcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The exit code, stdout (as UTF-8) and stderr of `result`.
 *
 * @example
 * expect(outcome(await runHb(cli, ['get', url]))).toEqual({ code: 0, stdout: 'ok', stderr: '' });
 */
export function outcome(result: HbResult): HbOutcome {
  return { code: result.code, stdout: result.stdout.toString('utf8'), stderr: result.stderr };
}
