// The public types that differ by platform: what `fromServer.bytes()` and `fromServer.stream()`
// give. One set of declarations serves both entries: the core names the web types, and the node
// entry's declarations (node-platform.ts) add Node's by declaration merging. So a program that
// imports the node entry sees `Buffer` and `Readable`, and a browser or Workers project, whose
// `browser` condition leads to browser.d.ts, sees `Uint8Array` and `ReadableStream` without
// needing Node's types at all.

/**
 * What the node entry says a response body is, as bytes and as a stream. Empty here (the
 * browser/Workers build's web types apply); the node entry (Node, Bun, Deno) fills it in with
 * `Buffer` and `Readable`. You never write it: it is how {@link BodyBytes} and
 * {@link BodyStream} follow the entry you import.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by declaration merging
export interface PlatformBodyTypes {}

/**
 * A response body as bytes (`fromServer.bytes()`): a Node `Buffer` from the node entry (Node,
 * Bun, Deno); a `Uint8Array` in browsers and Workers (the `browser`, `worker` and `workerd`
 * export conditions), where there is no `Buffer`.
 *
 * @example
 * c.response.parser('application/octet-stream', async (fromServer) => (await fromServer.bytes()).byteLength);
 */
export type BodyBytes = PlatformBodyTypes extends { readonly bytes: infer Bytes } ? Bytes : Uint8Array;

/**
 * A response body as a stream (`fromServer.stream()`): a Node `Readable` from the node entry
 * (Node, Bun, Deno); a web `ReadableStream<Uint8Array>` in browsers and Workers.
 *
 * @example
 * c.response.success((fromServer) => fromServer.stream()); // pipe it, or read it in a browser with getReader()
 */
export type BodyStream = PlatformBodyTypes extends { readonly stream: infer Stream } ? Stream : ReadableStream<Uint8Array>;
