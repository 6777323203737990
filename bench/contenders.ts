/**
 * The clients being compared. Each does the same work per request: send the same request,
 * read the whole body, parse it as JSON. Add axios/got/undici or another backend by adding
 * an entry to {@link CONTENDERS}.
 *
 * @module
 */
import http from 'node:http';
import { HttpBuilder } from '../lib/index.js';

/** One open client (its own connection pool). */
export interface Session {
  /** GET `path` on the server, read the whole body and resolve to `JSON.parse` of it. */
  getJson(path: string): Promise<unknown>;
  /** Releases sockets so the process can exit. */
  close(): Promise<void>;
}

/** A client under test. */
export interface Contender {
  readonly name: string;
  /** What it does per request, for the report. */
  readonly description: string;
  /** The reference the others are compared against (exactly one contender). */
  readonly baseline?: boolean;
  /** Upper bound for `CPU µs/req ÷ baseline CPU µs/req` this contender aims for, if any. */
  readonly cpuRatioTarget?: number;
  open(origin: string): Session;
}

/** Request headers the library sends by default; the raw client sends the same so the server's work is identical. */
const LIBRARY_LIKE_HEADERS = { 'User-Agent': 'raw-node-http', Accept: '*/*', 'Accept-Encoding': 'gzip, deflate, br' };

const httpbuilderNative: Contender = {
  name: 'httpbuilder-ts (native)',
  description: "HttpBuilder.configure(origin) + http.get((c) => { c.request.uri.path = path; }), default 'native' backend",
  cpuRatioTarget: 1.5,
  open(origin) {
    const client = HttpBuilder.configure((c) => {
      c.request.uri = origin;
    });
    return {
      // written the way a user writes it: a fresh block per call
      getJson: (path) =>
        client.get((c) => {
          c.request.uri.path = path;
        }),
      close: () => client.close(),
    };
  },
};

const rawNodeHttp: Contender = {
  name: 'raw node:http',
  description: 'http.request + http.Agent({ keepAlive: true }), collect chunks, JSON.parse',
  baseline: true,
  open(origin) {
    const agent = new http.Agent({ keepAlive: true });
    const { hostname, port } = new URL(origin);
    return {
      getJson: (path) => rawGetJson(agent, hostname, Number(port), path),
      close: () => {
        agent.destroy();
        return Promise.resolve();
      },
    };
  },
};

function rawGetJson(agent: http.Agent, hostname: string, port: number, path: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = http.request({ method: 'GET', hostname, port, path, agent, headers: LIBRARY_LIKE_HEADERS }, (res) => {
      // the library would reject these too; failing loudly keeps the comparison honest
      if (res.statusCode !== 200 || res.headers['content-encoding'] !== undefined) {
        res.resume();
        reject(new Error(`raw node:http: unexpected ${res.statusCode} ${res.headers['content-encoding'] ?? ''}`));
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('error', reject);
      res.once('end', () => {
        try {
          resolve(JSON.parse((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8')));
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
    req.once('error', reject);
    req.end();
  });
}

/** Everything measured, in this order in round 1 (later rounds rotate it). */
export const CONTENDERS: readonly Contender[] = [httpbuilderNative, rawNodeHttp];
