/**
 * node:stream and node:zlib for the node seams (decoders, compressors, body streams), loaded at
 * their first use rather than with the library: a process that never decodes, compresses or
 * streams a body does not pay for them at start (`process.getBuiltinModule`: Node ≥ 20.16, Bun,
 * Deno).
 * @internal
 */
import type stream from 'node:stream';
import type zlib from 'node:zlib';

let streamModule: typeof stream | undefined;
let zlibModule: typeof zlib | undefined;

/** node:stream, loaded on the first call. */
export function nodeStream(): typeof stream {
  return (streamModule ??= process.getBuiltinModule('node:stream'));
}

/** node:zlib, loaded on the first call. */
export function nodeZlib(): typeof zlib {
  return (zlibModule ??= process.getBuiltinModule('node:zlib'));
}
