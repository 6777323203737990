/**
 * `<name> backend alone`: one of the library's backends driven directly with a ready wire
 * request, no pipeline around it (no configuration block, no stages, no FromServer, no parser).
 * A probe for the block tools (`gc-split.ts`, `perf-split.ts`, `interleaved-profile.ts`), never
 * in `npm run bench`: set against the raw client it wraps, it shows what the transport layer
 * costs; set against the library on the same backend, what the pipeline costs.
 *
 * It loads the backend from `dist/` internals (not the package's API), the way the library does.
 *
 * @example
 * npx tsx bench/gc-split.ts 'raw fetch' 'fetch backend alone'
 * npx tsx bench/gc-split.ts 'fetch backend alone' 'httpbuilder-ts (fetch)'
 *
 * @module
 */
import type { BackendName, WireRequest, WireResponse } from '../../lib/index.js';
import { libraryLikeHeaders, type Contender, type Session } from '../contender.js';

const HEADERS = libraryLikeHeaders('backend');
const POST_HEADERS = { ...HEADERS, 'Content-Type': 'application/json' };
const utf8 = new TextDecoder();

/** The backend `name` alone: send, check the status, read the whole body, `JSON.parse` it. */
export function backendAlone(name: BackendName): Contender {
  return {
    name: `${name} backend alone`,
    description: `the library's '${name}' backend driven with a ready wire request, without the pipeline (a probe for the block tools, not in npm run bench)`,
    async open(origin) {
      const { backendFor } = (await import(new URL('../../dist/backends/registry.js', import.meta.url).href)) as typeof import('../../lib/backends/registry.js');
      const { bufferedText } = (await import(new URL('../../dist/backends/backend.js', import.meta.url).href)) as typeof import('../../lib/backends/backend.js');
      const backend = backendFor(name, undefined);
      const { hostname, port } = new URL(origin);
      // framed as the pipeline frames it: a body's length goes out as Content-Length
      const wire = (method: string, path: string, body: WireRequest['body']): WireRequest => ({
        method,
        url: origin + path,
        secure: false,
        hostname,
        port: Number(port),
        target: path,
        headers: body ? { ...POST_HEADERS, 'Content-Length': String(body.length) } : HEADERS,
        body,
      });
      const json = async (request: WireRequest): Promise<unknown> => {
        const response = await backend.send(request);
        if (response.status !== 200) {
          response.discard();
          throw new Error(`${name} backend: unexpected ${response.status}`);
        }
        return JSON.parse(utf8.decode(await wholeBody(response))) as unknown;
      };
      const session: Session = {
        getJson: (path) => json(wire('GET', path, undefined)),
        postJson: (path, body) => {
          const text = JSON.stringify(body);
          return json(wire('POST', path, bufferedText(text, Buffer.byteLength(text), (t) => Buffer.from(t))));
        },
        close: () => backend.close(),
      };
      return session;
    },
  };
}

/** The body in one piece: the backend's own `readAll` when it has one (no async layer of ours around it), else its chunks joined. */
function wholeBody(response: WireResponse): Promise<Uint8Array> {
  return response.readAll ? response.readAll() : joinedChunks(response.body);
}

async function joinedChunks(body: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}
