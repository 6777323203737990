/**
 * The library itself (compiled, from `dist/`: see `library.ts`), once per backend. Each is written
 * the way a user writes it and is compared with the raw client its backend uses underneath.
 *
 * @module
 */
import type { BackendChoice, HttpBuilder } from '../../lib/index.js';
import { importLibrary } from '../library.js';
import type { Contender, Session } from '../contender.js';

type BackendName = Extract<BackendChoice, string>;

/**
 * `HttpBuilder.configure(origin, backend)` + `http.get((c) => { c.request.uri.path = path; })`.
 * A backend that cannot load (package or module missing) rejects the first request, which the
 * run reports as this contender's failure.
 */
export function libraryContender(backend: BackendName, comparedWith: string, cpuRatioTarget: number): Contender {
  const choice = backend === 'native' ? "default 'native' backend" : `c.client.backend = '${backend}'`;
  return {
    name: `httpbuilder-ts (${backend})`,
    description: `HttpBuilder.configure(origin) + http.get((c) => { c.request.uri.path = path; }) (POST: also contentType = 'application/json', body = object), ${choice}`,
    comparedWith,
    cpuRatioTarget,
    async open(origin) {
      const { HttpBuilder } = await importLibrary();
      const client = HttpBuilder.configure((c) => {
        c.request.uri = origin;
        if (backend !== 'native') c.client.backend = backend;
      });
      return librarySession(client);
    },
  };
}

/** The scenarios' calls on `client`, written the way a user writes them: a fresh block per call. */
export function librarySession(client: HttpBuilder): Session {
  return {
    getJson: (path: string) =>
      client.get((c) => {
        c.request.uri.path = path;
      }),
    postJson: (path: string, body: object) =>
      client.post((c) => {
        c.request.uri.path = path;
        c.request.contentType = 'application/json';
        c.request.body = body;
      }),
    close: () => client.close(),
  };
}
