/**
 * `<name> backend alone`: one of the library's backends driven directly with a ready wire
 * request, no pipeline around it (no configuration block, no stages, no FromServer, no parser).
 * A probe for the block tools (`gc-split.ts`, `perf-split.ts`, `interleaved-profile.ts`), never
 * in `npm run bench`: set against the raw client it wraps, it shows what the transport layer
 * costs; set against the library on the same backend, what the pipeline costs.
 *
 * The backend comes from the compiled `dist/` (internal modules, not the package's API), loaded
 * as `bench/library.ts` loads the library: run `npm run build` first, the block tools do not.
 *
 * @example
 * npx tsx bench/gc-split.ts 'raw fetch' 'fetch backend alone'
 * npx tsx bench/gc-split.ts 'fetch backend alone' 'httpbuilder-ts (fetch)'
 *
 * @module
 */
import type { BackendName, WireRequest, WireResponse } from '../../lib/index.js';
import { libraryLikeHeaders, type Contender, type Session } from '../contender.js';
import { importDist } from '../library.js';

/** The User-Agent label of the raw client each backend runs on, so that requests are the same size as its. */
const RAW_LABEL: Readonly<Record<BackendName, string>> = { native: 'node-http', axios: 'axios', got: 'got', fetch: 'fetch' };
const utf8 = new TextDecoder();

/** The backend `name` alone: send, check the status, read the whole body, `JSON.parse` it. */
export function backendAlone(name: BackendName): Contender {
  const headers = libraryLikeHeaders(RAW_LABEL[name]);
  const postHeaders = { ...headers, 'Content-Type': 'application/json' };
  return {
    name: `${name} backend alone`,
    description: `the library's '${name}' backend driven with a ready wire request, without the pipeline (a probe for the block tools, not in npm run bench)`,
    async open(origin) {
      const { backendFor } = await importDist<typeof import('../../lib/backends/registry.js')>('backends/registry.js');
      // from the same dist/ module as the backend: the fetch backend sends a body as text only
      // when it is that module's own BufferedBody (an instanceof check), else as bytes
      const { bufferedText } = await importDist<typeof import('../../lib/backends/backend.js')>('backends/backend.js');
      const backend = backendFor(name, undefined);
      const { hostname, port } = new URL(origin); // the bench server's origin always names its port
      // framed as the pipeline frames it: a body's length goes out as Content-Length
      const wire = (method: string, path: string, body: WireRequest['body']): WireRequest => ({
        method,
        url: origin + path,
        secure: false,
        hostname,
        port: Number(port),
        target: path,
        headers: body ? { ...postHeaders, 'Content-Length': String(body.length) } : headers,
        body,
      });
      const json = async (request: WireRequest): Promise<unknown> => {
        const response = await backend.send(request);
        if (response.status !== 200) {
          response.discard();
          throw new Error(`${name} backend: unexpected ${response.status}`);
        }
        return JSON.parse(utf8.decode(await wholeBody(response, name))) as unknown;
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

/**
 * The body in one piece, with the backend's own `readAll` (every built-in backend has one).
 * No fallback that joins chunks: it would add an async layer of its own and skew the probe.
 */
function wholeBody(response: WireResponse, name: string): Promise<Uint8Array> {
  if (!response.readAll) throw new Error(`the ${name} backend's response has no readAll: the probe cannot measure it fairly`);
  return response.readAll();
}
