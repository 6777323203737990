/**
 * What Node (and Bun and Deno, which run Node's modules) adds to the web-standard core: each
 * import below plugs a node-only part into a seam of the core (transports, decoders, file
 * parts). Imported for its effect by the node entries (`index.ts`, ...); the browser/Workers
 * entry never imports it, so a browser bundle pulls no `node:` module.
 * @internal
 */
import './content/node-files.js';
import './content/node-codecs.js';

export {};
// node:zlib's decoders (br on Node 20, zstd where zlib has it) in place of DecompressionStream's
import './backends/node-decoders.js';
