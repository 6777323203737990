import { Readable } from 'node:stream';
import type CachePolicy from 'http-cache-semantics';
import type { WireResponse } from '../model/backend.js';
import { parseMediaType } from '../core/media-type.js';
import { DOWNLOADS, parserFor, STREAMS } from '../content/parsers.js';
import type { WireCall } from '../pipeline/plan.js';

/** Stores an entry made with the body it is given. */
export type StoreBody = (body: Buffer) => Promise<void>;

/** A body a Download writes or a Stream reads: any size, never held in memory for the cache too. */
export function goesElsewhere(call: WireCall, headers: CachePolicy.Headers): boolean {
  const type = parseMediaType(typeof headers['content-type'] === 'string' ? headers['content-type'] : '').type || 'application/octet-stream';
  const parse = parserFor(call.plan.parsers, type);
  return DOWNLOADS in parse || STREAMS in parse;
}

/**
 * `response` whose body, once read to its end (and no larger than `max`), is handed to `store`
 * before the read completes (so the next request finds it). A body read in part is not stored.
 */
export function storedAsRead(response: WireResponse, store: StoreBody, max: number): WireResponse {
  const source = response.body;
  async function* body(): AsyncGenerator<Uint8Array> {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of source) {
      size += chunk.byteLength;
      if (size <= max) chunks.push(chunk);
      else chunks.length = 0; // too large to store: nothing more is kept
      yield chunk;
    }
    if (size <= max) await store(Buffer.concat(chunks));
  }
  const readAll = response.readAll?.bind(response);
  return { ...response, body: { [Symbol.asyncIterator]: body }, readAll: readAll && (() => readAll().then((bytes) => storeWhole(bytes, store, max))) };
}

/** A response read whole here (a 3xx, whose body nobody else reads), stored, and given on with that body. */
export async function storedWhole(response: WireResponse, store: StoreBody, max: number): Promise<WireResponse> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body) chunks.push(chunk);
  const bytes = await storeWhole(Buffer.concat(chunks), store, max);
  return { ...response, body: Readable.from([bytes]), readAll: () => Promise.resolve(bytes) };
}

/** An empty response (`Content-Length: 0`, a 204), stored at once; its connection goes back unread. */
export async function storedEmpty(response: WireResponse, store: StoreBody): Promise<WireResponse> {
  response.discard();
  await store(Buffer.alloc(0));
  return { ...response, body: Readable.from([]), readAll: () => Promise.resolve(new Uint8Array(0)) };
}

async function storeWhole(bytes: Uint8Array, store: StoreBody, max: number): Promise<Uint8Array> {
  if (bytes.byteLength <= max) await store(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return bytes;
}
