// Test helper: one request over bare node:http(s), which adds no header and decodes nothing,
// so the auth route tests see exactly what the server sent.
import * as http from 'node:http';
import * as https from 'node:https';
import type { TestServer } from '../test-server.js';

/** What {@link rawSend} sends. */
export interface RawRequest {
  /** Default GET. */
  method?: string;
  /** The request-target, e.g. `/digest?a=1`. */
  target: string;
  /** A string[] value sends one field line per element. */
  headers?: http.OutgoingHttpHeaders;
  body?: string | Buffer;
  /** Use the HTTPS listener. */
  secure?: boolean;
}

/** A response as received. */
export interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Every field line of header `name` (case-insensitive), in order. */
  lines(name: string): string[];
}

/** Sends one request on a fresh connection (closed afterwards) and reads the whole response. */
export function rawSend(server: TestServer, request: RawRequest): Promise<RawReply> {
  const secure = request.secure ?? false;
  const url = new URL(server.url(secure));
  const options: https.RequestOptions = {
    method: request.method ?? 'GET',
    host: url.hostname,
    port: url.port,
    path: request.target,
    headers: request.headers,
    agent: false,
    ca: server.ca,
  };
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const raw = res.rawHeaders;
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          // rawHeaders alternates name, value
          lines: (name) => raw.flatMap((value, i) => (i % 2 === 1 && raw[i - 1].toLowerCase() === name.toLowerCase() ? [value] : [])),
        });
      });
    });
    req.on('error', reject);
    req.end(request.body);
  });
}
