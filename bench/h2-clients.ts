/**
 * The clients of scenario (l), HTTP/2 against HTTP/1.1 over TLS: for a backend (native or undici)
 * the library over HTTP/1.1 and over HTTP/2 (`client.http2`), and the raw client it runs on over
 * each: `node:https` with a keep-alive agent and one `node:http2` session, or undici `Agent`s
 * without and with `allowH2`. Pools: HTTP/1.1 unbounded (node's and undici's default, one
 * connection per request in flight), HTTP/2 one connection, for the library and raw alike.
 *
 * @module
 */
import http2 from 'node:http2';
import https from 'node:https';
import { libraryLikeHeaders } from './contender.js';
import { fromDist } from './contenders/library.js';

/** One client of (l): `get` is a GET of /small.json parsed as JSON. */
export interface H2Client {
  readonly name: string;
  readonly get: () => Promise<unknown>;
  readonly close: () => Promise<void>;
}

const PATH = '/small.json';

/** The four clients of `backend` against the HTTPS `origin` (trusting `ca`): library and raw, HTTP/1.1 and HTTP/2. */
export async function openH2Clients(backend: 'native' | 'undici', origin: string, ca: string): Promise<H2Client[]> {
  const raw = backend === 'native' ? [rawHttps(origin, ca), rawHttp2(origin, ca)] : await rawUndici(origin, ca);
  return [await library(backend, origin, ca, false), await library(backend, origin, ca, true), ...raw];
}

/** Name of a client of (l), as the report shows it. */
const h2ClientName = (who: string, h2: boolean) => `${who} ${h2 ? 'HTTP/2' : 'HTTP/1.1'}`;

/** The report's rows of (l) for `backend`: a label, and the names of its HTTP/1.1 and HTTP/2 clients. */
export function h2Rows(backend: 'native' | 'undici'): { label: string; http1: string; http2: string }[] {
  const library = `httpbuilder-ts (${backend})`;
  const raw =
    backend === 'native'
      ? { label: 'raw node:https / node:http2', http1: 'raw node:https', http2: 'raw node:http2' }
      : { label: 'raw undici.request', http1: 'raw undici.request', http2: 'raw undici.request' };
  return [
    { label: library, http1: h2ClientName(library, false), http2: h2ClientName(library, true) },
    { label: raw.label, http1: h2ClientName(raw.http1, false), http2: h2ClientName(raw.http2, true) },
  ];
}

async function library(backend: 'native' | 'undici', origin: string, ca: string, h2: boolean): Promise<H2Client> {
  const { HttpBuilder } = (await fromDist('index.js')) as typeof import('../lib/index.js');
  const client = HttpBuilder.configure((c) => {
    c.request.uri = `${origin}${PATH}`;
    c.client.backend = backend;
    c.execution.tls = { ca };
    c.client.http2 = h2;
  });
  return { name: h2ClientName(`httpbuilder-ts (${backend})`, h2), get: () => client.get(), close: () => client.close() };
}

function rawHttps(origin: string, ca: string): H2Client {
  const agent = new https.Agent({ keepAlive: true, ca });
  const { hostname, port } = new URL(origin);
  const options = { agent, hostname, port: Number(port), path: PATH, headers: libraryLikeHeaders('node-https') };
  const get = () =>
    new Promise<unknown>((resolve, reject) => {
      const req = https.get(options, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('error', reject);
        res.once('end', () =>
          res.statusCode === 200 ? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))) : reject(new Error(`status ${res.statusCode}`)),
        );
      });
      req.once('error', reject);
    });
  return { name: h2ClientName('raw node:https', false), get, close: () => Promise.resolve(agent.destroy()) };
}

function rawHttp2(origin: string, ca: string): H2Client {
  const session = http2.connect(origin, { ca });
  const headers = { ':path': PATH, ...libraryLikeHeaders('node-http2') };
  const get = () =>
    new Promise<unknown>((resolve, reject) => {
      const stream = session.request(headers, { endStream: true });
      const chunks: Buffer[] = [];
      let status = 0;
      stream.once('response', (h) => (status = Number(h[':status'])));
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.once('error', reject);
      stream.once('end', () => (status === 200 ? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))) : reject(new Error(`status ${status}`))));
    });
  return { name: h2ClientName('raw node:http2', true), get, close: () => new Promise((resolve) => session.close(() => resolve())) };
}

async function rawUndici(origin: string, ca: string): Promise<H2Client[]> {
  const { Agent, request } = await import('undici');
  const headers = libraryLikeHeaders('undici');
  const client = (h2: boolean): H2Client => {
    // undici's Client bounds requests in flight per connection by `pipelining` (1 unless set), HTTP/2 too:
    // without it one connection carries one stream at a time (the library sets 100 on an HTTP/2 connection)
    const dispatcher = h2 ? new Agent({ connect: { ca }, allowH2: true, connections: 1, pipelining: 100 }) : new Agent({ connect: { ca } });
    const get = async () => {
      const res = await request(origin + PATH, { headers, dispatcher });
      if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
      return res.body.json();
    };
    return { name: h2ClientName('raw undici.request', h2), get, close: () => dispatcher.close() };
  };
  return [client(false), client(true)];
}
