#!/usr/bin/env node
/**
 * The `hb` command (package `bin`): `hb <verb> <url> [options]`, one HTTP request made with
 * httpbuilder-ts. See `hb --help`; the work is done in `./cli/run.js`.
 *
 * @module
 */
import './node-platform.js'; // the node-only parts (file parts, XML/CSV codecs, ...): a node entry, as index.ts
import { describeError, EXIT, oneLine } from './cli/failure.js';
import { isBrokenPipe, run } from './cli/run.js';

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

process.exitCode = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: interrupt.signal,
});
