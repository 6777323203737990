// The auth interop scenarios, defined once and run against each protected path of a real server
// (Apache httpd Basic and Digest MD5, lighttpd Digest SHA-256 and MD5) on every backend.
import { afterEach, describe, expect, it } from '@jest/globals';
import { inspect } from 'node:util';
import { HttpBuilder, HttpException, type HttpConfig } from '../../lib/index.js';
import { BACKENDS } from '../conformance/backends.js';
import { PASSWORD, USER, newTag, type AuthArea, type PeerServer } from './servers/index.js';

export const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
export type Method = (typeof METHODS)[number];

const BODY = 'payload';
const WRONG_PASSWORD = 'not-wonderland';

/** What the echo CGI answers to alice: `POST alice payload`, `GET alice`. */
export function echoOf(method: Method): string {
  return hasBody(method) ? `${method} ${USER} ${BODY}` : `${method} ${USER}`;
}

function hasBody(method: Method): boolean {
  return method === 'POST' || method === 'PUT';
}

/** Sends `method` to the client's URI, with a text body for POST and PUT; resolves with the body as text. */
function send(http: HttpBuilder, method: Method): Promise<string> {
  const block = (c: HttpConfig): void => {
    if (hasBody(method)) {
      c.request.contentType = 'text/plain';
      c.request.body = BODY;
    }
  };
  switch (method) {
    case 'GET':
      return http.get(String, block);
    case 'POST':
      return http.post(String, block);
    case 'PUT':
      return http.put(String, block);
    case 'DELETE':
      return http.delete(String, block);
  }
}

/** The client-level credentials for an area: Basic or Digest, as the server asks. */
function authenticate(c: HttpConfig, area: AuthArea, password: string, preemptive?: boolean): void {
  const options = preemptive === undefined ? undefined : { preemptive };
  if (area.scheme === 'basic') c.request.auth.basic(USER, password, options);
  else c.request.auth.digest(USER, password, options);
}

/**
 * For each area of the server and each backend: GET, POST, PUT and DELETE with the right
 * password (200 and the echo, after one challenge) and a wrong one (HttpException 401 after
 * exactly one authenticated try); ten requests on one client where only the first is challenged.
 * The access log is the witness: every request carries `?t=<tag>` (so Digest's `uri` has a query).
 */
export function authInterop(peer: { readonly server: PeerServer }, areas: readonly AuthArea[]): void {
  for (const area of areas) {
    describe(area.title, () => {
      for (const backend of BACKENDS) {
        describe(backend.name, () => {
          const open: HttpBuilder[] = [];
          afterEach(async () => {
            await Promise.all(open.splice(0).map((http) => http.close()));
          });

          function client(tag: string, password: string, preemptive?: boolean): HttpBuilder {
            const http = HttpBuilder.configure((c) => {
              c.request.uri = peer.server.url(area.path, tag);
              c.client.backend = backend.choice;
              authenticate(c, area, password, preemptive);
            });
            open.push(http);
            return http;
          }

          for (const method of METHODS) {
            it(`${method} with the right password: 200 and the text, after one challenge`, async () => {
              const tag = newTag();
              expect(await send(client(tag, PASSWORD), method)).toBe(echoOf(method));
              const entries = await peer.server.accessLog.entries(tag, { atLeast: 2 });
              expect(entries.map((entry) => `${entry.method} ${entry.status}`)).toEqual([`${method} 401`, `${method} 200`]);
            });

            it(`${method} with a wrong password: HttpException 401 'Unauthorized' after exactly one authenticated try`, async () => {
              const tag = newTag();
              const error = await send(client(tag, WRONG_PASSWORD), method).then(
                () => undefined,
                (failure: unknown) => failure,
              );
              expect(error).toBeInstanceOf(HttpException);
              expect(error).toMatchObject({ message: 'Unauthorized', statusCode: 401 });
              // the unauthenticated request and one try with the credentials: no loop
              const entries = await peer.server.accessLog.entries(tag, { atLeast: 2 });
              expect(entries.map((entry) => `${entry.method} ${entry.status}`)).toEqual([`${method} 401`, `${method} 401`]);
              // no secret in what the error shows
              const shown = `${inspect(error, { depth: 10, showHidden: true })} ${JSON.stringify(error)}`;
              expect(shown).not.toContain(WRONG_PASSWORD);
              expect(shown).not.toContain(Buffer.from(`${USER}:${WRONG_PASSWORD}`).toString('base64'));
            });
          }

          it('ten requests in a row on one client: only the first is challenged', async () => {
            const tag = newTag();
            const http = client(tag, PASSWORD);
            const methods = Array.from({ length: 10 }, (_, i) => METHODS[i % METHODS.length] ?? 'GET');
            const texts: string[] = [];
            for (const method of methods) texts.push(await send(http, method));
            expect(texts).toEqual(methods.map(echoOf));
            const entries = await peer.server.accessLog.entries(tag, { atLeast: 11 });
            expect(entries.filter((entry) => entry.status === 401)).toHaveLength(1);
            expect(entries.map((entry) => entry.status)).toEqual([401, ...methods.map(() => 200)]);
          });

          if (area.scheme === 'basic') {
            it('preemptive Basic: ten requests, no challenge at all', async () => {
              const tag = newTag();
              const http = client(tag, PASSWORD, true);
              for (let i = 0; i < 10; i++) expect(await send(http, 'GET')).toBe(echoOf('GET'));
              expect(await peer.server.accessLog.count401(tag, { atLeast: 10 })).toBe(0);
            });
          }
        });
      }
    });
  }
}
