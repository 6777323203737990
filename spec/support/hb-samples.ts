// Runs the hb command blocks of the documentation (`<!-- sample: hb -->`, see doc-samples.ts)
// with the built CLI against the local test server.
import type { HbSample } from './doc-samples.js';
import type { OriginMapping } from './sample-runner.js';
import { runHb } from '../cli/support/run-hb.js';

/**
 * Runs every command of `sample` with the CLI at `cli` in `cwd`, the placeholder origins in
 * its arguments sent to their targets. Rejects naming the command when one exits with another
 * code than the block declares, or when the expected output is missing.
 */
export async function runHbSample(sample: HbSample, cli: string, origins: readonly OriginMapping[], cwd: string): Promise<void> {
  let output = '';
  for (const [i, command] of sample.commands.entries()) {
    const args = command.map((arg) => toTargets(arg, origins));
    const result = await runHb(cli, args, { cwd });
    const text = toPlaceholders(`${result.stdout.toString('utf8')}${result.stderr}`, origins);
    output += text;
    if (result.code !== sample.exitCode) {
      throw new Error(
        `${sample.file}:${sample.line}: command ${i + 1} (hb ${command.join(' ')}) exited with ${result.code ?? result.signal}, not ${sample.exitCode}:\n${text}`,
      );
    }
  }
  let from = 0;
  for (const expected of sample.expectedOutput) {
    const at = output.indexOf(expected, from);
    if (at < 0) throw new Error(`${sample.file}:${sample.line}: the output lacks ${JSON.stringify(expected)} (in order); it was:\n${output}`);
    from = at + expected.length;
  }
}

function toTargets(arg: string, origins: readonly OriginMapping[]): string {
  return origins.reduce((text, { placeholder, target }) => text.replaceAll(`https://${placeholder}`, target), arg);
}

function toPlaceholders(text: string, origins: readonly OriginMapping[]): string {
  return origins.reduce((out, { placeholder, target }) => out.replaceAll(target, `https://${placeholder}`), text);
}
