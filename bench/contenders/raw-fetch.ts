/**
 * `raw fetch` (undici 7's `fetch` on an undici `Agent`: what the library's fetch backend runs on)
 * and `raw global fetch` (node's built-in `fetch` on its global pool, for information).
 *
 * Both upload with fetch's defaults (`redirect: 'follow'`), so both keep a copy of a streamed
 * request body until the request is over (nodejs/undici#4058): the library's fetch backend
 * sends streamed bodies with `redirect: 'error'`, which avoids that copy.
 *
 * @module
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { DOWNLOAD_PATH, UPLOAD_PATH, handBuiltMultipart, libraryLikeHeaders, type Contender, type Session } from '../contender.js';

/** What this needs of a fetch Response (undici's and the global one differ only in their types). */
type ResponseLike = Pick<Response, 'ok' | 'status' | 'json'> & { readonly body: { cancel(): Promise<void> } | null };

/** The part of `RequestInit` both fetches take alike. */
type Init = { method?: string; headers: Record<string, string>; body?: string | Readable; duplex?: 'half' };

const HEADERS = libraryLikeHeaders('fetch');
const POST_HEADERS = { ...HEADERS, 'Content-Type': 'application/json' };
const TRANSFERS =
  "download: pipeline(Readable.fromWeb(res.body), fs.createWriteStream(file)); upload: fetch(url, { method: 'POST', body: Readable.from(hand-built multipart), duplex: 'half', Content-Type, Content-Length }), await res.json(); fetch's defaults (redirect: 'follow')";

/** undici 7: `fetch(url, { headers, dispatcher: new Agent() })`, `await res.json()`. */
export const rawFetch: Contender = {
  name: 'raw fetch',
  description: {
    requests:
      'undici 7 fetch(origin + path, { headers, dispatcher: new undici.Agent() }) (POST: method, Content-Type, body JSON.stringify), check res.ok, await res.json()',
    transfers: `undici 7 fetch(url, { dispatcher: new undici.Agent() }); ${TRANSFERS}`,
  },
  async open(origin) {
    const { Agent, fetch } = await import('undici');
    const dispatcher = new Agent();
    return session(origin, { send: (url, init) => fetch(url, { ...init, dispatcher }), close: () => dispatcher.close() });
  },
};

/** Node's global `fetch` (node 20: its bundled undici 6) on the global dispatcher. */
export const rawGlobalFetch: Contender = {
  name: 'raw global fetch',
  description: {
    requests: "node's global fetch(origin + path, { headers }) on the global dispatcher, check res.ok, await res.json() (information only)",
    transfers: `node's global fetch(url) on the global dispatcher; ${TRANSFERS} (information only)`,
  },
  open(origin) {
    // the global pool is shared by the whole process: nothing of ours to release
    return Promise.resolve(session(origin, { send: (url, init) => globalThis.fetch(url, init), close: () => Promise.resolve() }));
  },
};

/** A session of either fetch: `send` is the fetch, `close` releases its pool. */
function session(origin: string, { send, close }: { send: (url: string, init: Init) => Promise<ResponseLike>; close: () => Promise<void> }): Session {
  const failed = async (res: ResponseLike): Promise<never> => {
    await res.body?.cancel();
    throw new Error(`fetch: unexpected ${res.status}`);
  };
  // one async step per JSON request, as a user writes it (not `ok` below, then `.json()`)
  const json = async (path: string, init: Init) => {
    const res = await send(origin + path, init);
    return res.ok ? res.json() : failed(res);
  };
  const ok = async (url: string, init: Init) => {
    const res = await send(url, init);
    return res.ok ? res : failed(res);
  };
  return {
    getJson: (path) => json(path, { headers: HEADERS }),
    postJson: (path, body) => json(path, { method: 'POST', headers: POST_HEADERS, body: JSON.stringify(body) }),
    async download(size, file) {
      const res = await ok(`${origin}${DOWNLOAD_PATH}?n=${size}`, { headers: HEADERS });
      await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), createWriteStream(file));
    },
    async upload(source, size) {
      const { headers, body } = handBuiltMultipart(source, size);
      return (await ok(origin + UPLOAD_PATH, { method: 'POST', headers: { ...HEADERS, ...headers }, body: Readable.from(body), duplex: 'half' })).json();
    },
    close,
  };
}
