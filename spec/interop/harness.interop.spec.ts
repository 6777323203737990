// The harness itself, checked with curl as the reference client: each server starts, challenges
// the way it should, lets alice in with the right password for every method and keeps her out
// with a wrong one, logs what the auth tests count, and leaves no process behind.
import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import * as http from 'node:http';
import { promisify } from 'node:util';
import {
  APACHE_AREAS,
  LIGHTTPD_AREAS,
  PASSWORD,
  PUBLIC_ECHO,
  USER,
  newTag,
  probe,
  startApache,
  startLighttpd,
  type AuthArea,
  type PeerServer,
} from './servers/index.js';
import { usePeer } from './servers/use-peer.js';
import { processesMentioning } from './servers/processes.js';

const execFileAsync = promisify(execFile);
const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
const BODY = 'payload';

/** curl's answer: the final status and body. */
async function curl(args: readonly string[]): Promise<{ status: number; body: string }> {
  const { stdout } = await execFileAsync('curl', ['-sS', '--max-time', '10', '-w', '\n%{http_code}', ...args]);
  const cut = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) };
}

function curlArgs(area: AuthArea, method: string, password: string, url: string): string[] {
  const auth = area.scheme === 'digest' ? ['--digest'] : ['--basic'];
  const body = method === 'POST' || method === 'PUT' ? ['-H', 'Content-Type: text/plain', '--data-binary', BODY] : [];
  return [...auth, '-u', `${USER}:${password}`, '-X', method, ...body, url];
}

/** What the echo CGI answers. */
function echo(method: string, user: string): string {
  return method === 'POST' || method === 'PUT' ? `${method} ${user} ${BODY}` : `${method} ${user}`;
}

/** The WWW-Authenticate header of an unauthenticated GET. */
function challengeOf(url: string): Promise<{ status: number; header: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (response) => {
        response.resume();
        response.once('end', () => resolve({ status: response.statusCode ?? 0, header: String(response.headers['www-authenticate']) }));
      })
      .once('error', reject);
  });
}

const SERVERS: ReadonlyArray<{ name: string; start: () => Promise<PeerServer>; areas: readonly AuthArea[] }> = [
  { name: 'apache', start: startApache, areas: APACHE_AREAS },
  { name: 'lighttpd', start: startLighttpd, areas: LIGHTTPD_AREAS },
];

for (const { name, start, areas } of SERVERS) {
  describe(`${name} harness (curl as the client)`, () => {
    const peer = usePeer(start);

    it('answers every method on the unprotected echo CGI with 200', async () => {
      for (const method of METHODS) {
        const answer = await curl(['-X', method, ...(method === 'POST' || method === 'PUT' ? ['--data-binary', BODY] : []), peer.server.url(PUBLIC_ECHO)]);
        expect(answer).toEqual({ status: 200, body: method === 'POST' || method === 'PUT' ? `${method}  ${BODY}` : `${method} ` });
      }
    });

    for (const area of areas) {
      describe(area.title, () => {
        it(`challenges with ${area.scheme === 'digest' ? `Digest ${area.algorithm ?? ''} qop="auth"` : 'Basic'}`, async () => {
          const { status, header } = await challengeOf(peer.server.url(area.path));
          expect(status).toBe(401);
          if (area.scheme === 'basic') {
            expect(header).toBe(`Basic realm="${area.realm}"`);
          } else {
            expect(header).toMatch(/^Digest /);
            expect(header).toContain(`realm="${area.realm}"`);
            expect(header).toContain(`algorithm=${area.algorithm ?? ''},`);
            expect(header).toContain('qop="auth"');
          }
        });

        for (const method of METHODS) {
          it(`${method} with the right password: 200 and the echo, one challenge for Digest (curl sends Basic up front)`, async () => {
            const tag = newTag();
            const answer = await curl(curlArgs(area, method, PASSWORD, peer.server.url(area.path, tag)));
            expect(answer).toEqual({ status: 200, body: echo(method, USER) });
            const entries = await peer.server.accessLog.entries(tag, { atLeast: area.scheme === 'digest' ? 2 : 1 });
            expect(entries.map((entry) => `${entry.method} ${entry.status}`)).toEqual(
              area.scheme === 'digest' ? [`${method} 401`, `${method} 200`] : [`${method} 200`],
            );
            expect(entries.at(-1)?.user).toBe(USER);
            expect(await peer.server.accessLog.count401(tag)).toBe(area.scheme === 'digest' ? 1 : 0);
          });
        }

        it('a wrong password: 401, and the server logged each try', async () => {
          const tag = newTag();
          const answer = await curl(curlArgs(area, 'GET', 'not-the-password', peer.server.url(area.path, tag)));
          expect(answer.status).toBe(401);
          const entries = await peer.server.accessLog.entries(tag, { atLeast: area.scheme === 'digest' ? 2 : 1 });
          expect(entries.map((entry) => entry.status)).toEqual(area.scheme === 'digest' ? [401, 401] : [401]);
          expect(await peer.server.accessLog.count401(tag)).toBe(entries.length);
        });
      });
    }
  });

  describe(`${name} harness lifecycle`, () => {
    it('stop() ends every process of the server and frees its port', async () => {
      const server = await start();
      try {
        expect(await processesMentioning(server.root)).not.toEqual([]);
      } finally {
        await server.stop();
      }
      expect(await processesMentioning(server.root)).toEqual([]);
      await expect(probe(server.url('/marker.txt'))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      await server.stop(); // idempotent
    });
  });
}
