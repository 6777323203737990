/**
 * `raw undici.request`: undici 7's own request API (its dispatcher API, not its fetch), the
 * leanest client node has, and the counterpart of the library's undici backend.
 *
 * @module
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { COUNT_PATH, DOWNLOAD_PATH, UPLOAD_PATH, handBuiltMultipart, libraryLikeHeaders, type Contender } from '../contender.js';

const HEADERS = libraryLikeHeaders('undici');
const POST_HEADERS = { ...HEADERS, 'Content-Type': 'application/json' };
const OCTETS = { ...HEADERS, 'Content-Type': 'application/octet-stream' };

/** `request(origin + path, { headers, dispatcher: new Agent() })`, the status checked, `await body.json()` or the body piped. */
export const rawUndiciRequest: Contender = {
  name: 'raw undici.request',
  description: {
    requests:
      'undici 7 request(origin + path, { headers, dispatcher: new undici.Agent() }) (POST: method, Content-Type, body JSON.stringify), check statusCode, await body.json()',
    transfers:
      'undici 7 request(url, { dispatcher: new undici.Agent() }); download: pipeline(body, fs.createWriteStream(file)); upload: body = Readable.from(hand-built multipart) with Content-Length, await body.json()',
  },
  async open(origin) {
    const { Agent, request } = await import('undici');
    const dispatcher = new Agent();
    type Options = { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string | Uint8Array | Readable };
    type Response = Awaited<ReturnType<typeof request>>;
    const failed = async (res: Response): Promise<never> => {
      await res.body.dump();
      throw new Error(`undici.request: unexpected ${res.statusCode}`);
    };
    // one async step per JSON request, as a user writes it (not `ok` below, then `.json()`)
    const json = async (path: string, options: Options) => {
      const res = await request(origin + path, { ...options, dispatcher });
      return res.statusCode === 200 ? res.body.json() : failed(res);
    };
    const ok = async (url: string, options: Options) => {
      const res = await request(url, { ...options, dispatcher });
      return res.statusCode === 200 ? res.body : failed(res);
    };
    return {
      getJson: (path) => json(path, { method: 'GET', headers: HEADERS }),
      postJson: (path, body) => json(path, { method: 'POST', headers: POST_HEADERS, body: JSON.stringify(body) }),
      download: async (size, file) => pipeline(await ok(`${origin}${DOWNLOAD_PATH}?n=${size}`, { method: 'GET', headers: HEADERS }), createWriteStream(file)),
      async upload(source, size) {
        const { headers, body } = handBuiltMultipart(source, size);
        return (await ok(origin + UPLOAD_PATH, { method: 'POST', headers: { ...HEADERS, ...headers }, body: Readable.from(body) })).json();
      },
      getBytes: async (size) => new Uint8Array(await (await ok(`${origin}${DOWNLOAD_PATH}?n=${size}`, { method: 'GET', headers: HEADERS })).arrayBuffer()),
      postBytes: async (body) => (await ok(origin + COUNT_PATH, { method: 'POST', headers: OCTETS, body })).json(),
      close: () => dispatcher.close(),
    };
  },
};
