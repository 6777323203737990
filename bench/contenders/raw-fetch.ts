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

/** The part of `RequestInit` both fetches take alike. */
interface Init {
  method?: string;
  headers: Record<string, string>;
  body?: string;
}

const HEADERS = libraryLikeHeaders('fetch');
const POST_HEADERS = { ...HEADERS, 'Content-Type': 'application/json' };

/** undici 7: `fetch(url, { headers, dispatcher: new Agent() })`, `await res.json()`. */
export const rawFetch: Contender = {
  name: 'raw fetch',
  description: 'undici 7 fetch(origin + path, { headers, dispatcher: new undici.Agent() }) (POST: method, Content-Type, body JSON.stringify), check res.ok, await res.json()',
  async open(origin) {
    const { Agent, fetch } = await import('undici');
    const dispatcher = new Agent();
    return session(origin, (url, init) => fetch(url, { ...init, dispatcher }), () => dispatcher.close());
  },
};

/** Node's global `fetch` (node 20: its bundled undici 6) on the global dispatcher. */
export const rawGlobalFetch: Contender = {
  name: 'raw global fetch',
  description: "node's global fetch(origin + path, { headers }) on the global dispatcher, check res.ok, await res.json() (information only)",
  open(origin) {
    // the global pool is shared by the whole process: nothing of ours to release
    return Promise.resolve(session(origin, (url, init) => globalThis.fetch(url, init), () => Promise.resolve()));
  },
};

function session(origin: string, send: (url: string, init: Init) => Promise<ResponseLike>, close: () => Promise<void>): Session {
  const json = async (path: string, init: Init) => {
    const res = await send(origin + path, init);
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`fetch: unexpected ${res.status}`);
    }
    return res.json();
  };
  return {
    getJson: (path) => json(path, { headers: HEADERS }),
    postJson: (path, body) => json(path, { method: 'POST', headers: POST_HEADERS, body: JSON.stringify(body) }),
    close,
  };
}
