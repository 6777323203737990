/**
 * What Node (and Bun and Deno, which run Node's modules) adds to the web-standard core: each
 * import below plugs a node-only part into a seam of the core. Imported for its effect by the
 * node entries (`index.ts`, `cli.ts`, `testing.ts`, `download.ts`); the browser/Workers entry
 * never imports it, so a browser bundle pulls no `node:` module.
 * @internal
 */
export {};

// the types of the same: from this entry, `fromServer.bytes()` is a Buffer and `stream()` a
// Readable (core/platform-types.ts; a browser/Workers program, without this file, sees the web
// types). An inline import(): the declaration emit drops an import used only in here.
declare module './core/platform-types.js' {
  interface PlatformBodyTypes {
    readonly bytes: Buffer;
    readonly stream: import('node:stream').Readable;
  }
}

// multipart parts from a path or file: URL (content/file-source.ts's web default: a ConfigError)
import './content/node-files.js';
// xml2js and csv-* for XML and CSV bodies (content/codec-loaders.ts's web default: none)
import './content/node-codecs.js';
// node:zlib's decoders (br on Node 20, zstd where zlib has it) in place of DecompressionStream's
import './backends/node-decoders.js';
// ... and node:zlib's compressors for request.compress (br included), in place of CompressionStream's
import './content/node-compression.js';
// transports: native by default, axios, got, undici and fetch loaded on first use (backend-choice.ts's web default knows only fetch)
import './backends/registry.js';
// proxies, and the cache loaded by the first request of a client with client.cache (platform-stages.ts)
import './pipeline/node-stages.js';
// fromServer.stream() as a Readable, piped straight off a node wire body (body-stream.ts's web default: a ReadableStream)
import './model/node-body-stream.js';
// the `httpbuilder:` diagnostics channels (core/diagnostics.ts's web default: none)
import './model/node-channels.js';
// client.connection, execution.tls and client.cache checked member by member when set (config/platform-checks.ts's web defaults: no such checks)
import './config/node-checks.js';
// ... and execution.tls's certificates, keys and ciphers tried on node's TLS then (after node-checks.js, which it extends)
import './backends/node-tls-checks.js';
// the call's modules with the library (pipeline/call-modules.ts's web default: loaded by a client's first request), so that a client's settings are merged and checked when it is made
import './pipeline/node-calls.js';
