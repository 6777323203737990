/**
 * `raw fetch` (undici 7's `fetch` on an undici `Agent`: what the library's fetch backend uses
 * underneath) and `raw global fetch` (node's built-in `fetch` on its global pool, for information).
 *
 * @module
 */
import { libraryLikeHeaders, type Contender, type Session } from '../contender.js';

/** What this needs of a fetch Response (undici's and the global one differ only in their types). */
interface ResponseLike {
  readonly ok: boolean;
  readonly status: number;
  readonly body: { cancel(): Promise<void> } | null;
  json(): Promise<unknown>;
}

const HEADERS = libraryLikeHeaders('fetch');

/** undici 7: `fetch(url, { headers, dispatcher: new Agent() })`, `await res.json()`. */
export const rawFetch: Contender = {
  name: 'raw fetch',
  description: 'undici 7 fetch(origin + path, { headers, dispatcher: new undici.Agent() }), check res.ok, await res.json()',
  async open(origin) {
    const { Agent, fetch } = await import('undici');
    const dispatcher = new Agent();
    return session(origin, (url) => fetch(url, { headers: HEADERS, dispatcher }), () => dispatcher.close());
  },
};

/** Node's global `fetch` (node 20: its bundled undici 6) on the global dispatcher. */
export const rawGlobalFetch: Contender = {
  name: 'raw global fetch',
  description: "node's global fetch(origin + path, { headers }) on the global dispatcher, check res.ok, await res.json() (information only)",
  open(origin) {
    // the global pool is shared by the whole process: nothing of ours to release
    return Promise.resolve(session(origin, (url) => globalThis.fetch(url, { headers: HEADERS }), () => Promise.resolve()));
  },
};

function session(origin: string, get: (url: string) => Promise<ResponseLike>, close: () => Promise<void>): Session {
  return {
    async getJson(path) {
      const res = await get(origin + path);
      if (!res.ok) {
        await res.body?.cancel();
        throw new Error(`fetch: unexpected ${res.status}`);
      }
      return res.json();
    },
    close,
  };
}
