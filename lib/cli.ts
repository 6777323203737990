#!/usr/bin/env node
/**
 * The `hb` command (package `bin`): `hb <verb> <url> [options]`, one HTTP request made with
 * httpbuilder-ts. See `hb --help`; the work is done in `./cli/run.js`.
 *
 * @module
 */
import { describeError, EXIT, isBrokenPipe, oneLine } from './cli/failure.js';
import { helpOrVersionText } from './cli/quick-answers.js';

// the reader of stdout went away (`hb get ... | head`): stop quietly, as other commands do
process.stdout.on('error', (error) => {
  if (isBrokenPipe(error)) process.exit(process.exitCode ?? EXIT.OK);
  throw error;
});
// a last guard: whatever escapes is still one line, never a stack trace
process.on('uncaughtException', (error) => {
  process.stderr.write(`hb: ${oneLine(describeError(error))}\n`);
  process.exit(EXIT.FAILURE);
});

// the first Ctrl-C cancels the request (removing a partial download); a second one kills as usual
const interrupt = new AbortController();
process.once('SIGINT', () => interrupt.abort());

const argv = process.argv.slice(2);
// `hb --help` and `hb --version` answer without loading the library: a start costs little more than node's
const quick = await helpOrVersionText(argv);
if (quick !== undefined) process.stdout.write(quick);
else {
  // the node-only parts (file parts, XML/CSV codecs, ...) before the library runs: a node entry, as index.ts
  await import('./node-platform.js');
  const { run } = await import('./cli/run.js');
  process.exitCode = await run(argv, { stdout: process.stdout, stderr: process.stderr, env: process.env, signal: interrupt.signal });
}
