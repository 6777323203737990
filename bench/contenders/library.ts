/**
 * The library itself, compiled (`dist/`, which `run.ts` builds first), once per backend, written
 * the way a user writes it and compared with the raw client its backend runs on.
 *
 * @module
 */
import type { BackendChoice } from '../../lib/index.js';
import { COUNT_PATH, DOWNLOAD_PATH, UPLOAD_PART, UPLOAD_PATH, type Contender } from '../contender.js';

export type BackendName = Extract<BackendChoice, string>;
type Entries = [typeof import('../../lib/index.js'), typeof import('../../lib/download.js')];

/** A module of the compiled package; computed specifiers, as typechecking must not need a built dist/. */
export const fromDist = (entry: string): Promise<unknown> => import(new URL(`../../dist/${entry}`, import.meta.url).href);

/**
 * `httpbuilder-ts (<backend>)`: `HttpBuilder.configure(origin)` and a fresh block per call.
 * `target` bounds its CPU per request ÷ `counterpart`'s. A backend that cannot load (package
 * missing) rejects at `open` or at the first request, which the run reports as this contender's failure.
 */
export function library(backend: BackendName, counterpart: Contender, target: number): Contender {
  const choice = backend === 'native' ? "default 'native' backend" : `c.client.backend = '${backend}'`;
  return {
    name: `httpbuilder-ts (${backend})`,
    description: {
      requests: `HttpBuilder.configure(origin), http.get((c) => { c.request.uri.path = path; }) (POST: also contentType = 'application/json', body = object); ${choice}`,
      transfers: `download: http.get((c) => { path, query n; Download.toFile(c, file) }); upload: http.post((c) => { c.request.body = multipart((mp) => mp.part('file', 'big.bin', type, { path })) }); ${choice}`,
    },
    counterpart: counterpart.name,
    target,
    proxied: counterpart.proxied,
    async open(origin, proxy) {
      const [{ HttpBuilder, multipart }, { Download }] = (await Promise.all([fromDist('index.js'), fromDist('download.js')])) as Entries;
      const client = HttpBuilder.configure((c) => {
        c.request.uri = origin;
        if (backend !== 'native') c.client.backend = backend;
        if (proxy) c.client.proxy = proxy;
      });
      return {
        getJson: (path) =>
          client.get((c) => {
            c.request.uri.path = path;
          }),
        postJson: (path, body) =>
          client.post((c) => {
            c.request.uri.path = path;
            c.request.contentType = 'application/json';
            c.request.body = body;
          }),
        download: (size, file) =>
          client.get((c) => {
            c.request.uri.path = DOWNLOAD_PATH;
            c.request.uri.query = { n: String(size) };
            Download.toFile(c, file);
          }),
        upload: (source) =>
          client.post((c) => {
            c.request.uri.path = UPLOAD_PATH;
            c.request.contentType = 'multipart/form-data';
            c.request.body = multipart((mp) => mp.part(UPLOAD_PART.name, UPLOAD_PART.fileName, UPLOAD_PART.contentType, { path: source }));
          }),
        // an octet-stream answer is a Buffer; an octet-stream body is sent as it is
        getBytes: (size) =>
          client.get((c) => {
            c.request.uri.path = DOWNLOAD_PATH;
            c.request.uri.query = { n: String(size) };
          }) as Promise<Uint8Array>,
        postBytes: (body) =>
          client.post((c) => {
            c.request.uri.path = COUNT_PATH;
            c.request.contentType = 'application/octet-stream';
            c.request.body = body;
          }),
        close: () => client.close(),
      };
    },
  };
}
