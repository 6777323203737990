/**
 * `raw node:http`: the baseline, node's own client with a keep-alive agent and nothing else.
 *
 * @module
 */
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import { json } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import { COUNT_PATH, DOWNLOAD_PATH, UPLOAD_PATH, closeAgents, handBuiltMultipart, libraryLikeHeaders, type Contender } from '../contender.js';

const HEADERS = libraryLikeHeaders('node-http');

/** `http.request` + `http.Agent({ keepAlive: true })`: chunks collected and `JSON.parse`d, or `stream.pipeline` to and from a file. */
export const rawNodeHttp: Contender = {
  name: 'raw node:http',
  description: {
    requests: 'http.request + http.Agent({ keepAlive: true }), collect chunks, JSON.parse (POST: JSON.stringify, Content-Type and Content-Length set)',
    transfers:
      'http.request + http.Agent({ keepAlive: true }); download: pipeline(res, fs.createWriteStream(file)); upload: pipeline(hand-built multipart around fs.createReadStream(path), req) with Content-Length',
  },
  baseline: true,
  proxied: true,
  open(origin, proxy) {
    const agent = new http.Agent({ keepAlive: true });
    const { hostname, port } = new URL(proxy ?? origin);
    const target = { agent, hostname, port: Number(port) };
    // through a proxy: the connection goes to it, every path in absolute form, the target in Host
    const base = proxy ? origin : '';
    const own = proxy ? { ...HEADERS, Host: new URL(origin).host } : HEADERS;
    // the transfers' requests; the JSON ones below build their options inline, as they always have
    const request = (method: string, path: string, headers: http.OutgoingHttpHeaders) =>
      http.request({ ...target, method, path: base + path, headers: { ...own, ...headers } });
    return Promise.resolve({
      getJson: (path: string) => exchangeJson({ ...target, method: 'GET', path: base + path, headers: own }),
      postJson: (path: string, body: object) => {
        const text = JSON.stringify(body);
        const headers = { ...own, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) };
        return exchangeJson({ ...target, method: 'POST', path: base + path, headers }, text);
      },
      async download(size: number, file: string) {
        const req = request('GET', `${DOWNLOAD_PATH}?n=${size}`, {}).end();
        await pipeline(await response(req), createWriteStream(file));
      },
      async upload(source: string, size: number) {
        const { headers, body } = handBuiltMultipart(source, size);
        const req = request('POST', UPLOAD_PATH, headers);
        const answer = response(req);
        await pipeline(body, req);
        return json(await answer);
      },
      async getBytes(size: number) {
        const res = await response(request('GET', `${DOWNLOAD_PATH}?n=${size}`, {}).end());
        const chunks: Buffer[] = [];
        for await (const chunk of res) chunks.push(chunk as Buffer);
        return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      },
      async postBytes(body: Uint8Array) {
        const req = request('POST', COUNT_PATH, { 'Content-Type': 'application/octet-stream', 'Content-Length': body.byteLength });
        const answer = response(req);
        req.end(body);
        return json(await answer);
      },
      close: closeAgents(agent),
    });
  },
};

/** One request with an optional body; resolves to the parsed JSON response. */
function exchangeJson(options: http.RequestOptions, body?: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = http.request(options, (res) => {
      // the library would reject these too; failing loudly keeps the comparison honest
      if (res.statusCode !== 200 || res.headers['content-encoding'] !== undefined) {
        res.resume();
        return reject(new Error(`raw node:http: unexpected ${res.statusCode} ${res.headers['content-encoding'] ?? ''}`));
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
    req.end(body);
  });
}

/** The response of `req`, rejected unless it is a 200 (its body then drained). */
function response(req: http.ClientRequest): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    req.once('error', reject);
    req.once('response', (res) => {
      if (res.statusCode === 200) return resolve(res);
      res.resume();
      reject(new Error(`raw node:http: unexpected ${res.statusCode}`));
    });
  });
}
