/**
 * `raw node:http`: the overall baseline, node's own client with a keep-alive agent and nothing else.
 *
 * @module
 */
import http from 'node:http';
import { asError, libraryLikeHeaders, type Contender } from '../contender.js';

const HEADERS = libraryLikeHeaders('node-http');

/** `http.request` + `http.Agent({ keepAlive: true })`, chunks collected, `JSON.parse`. */
export const rawNodeHttp: Contender = {
  name: 'raw node:http',
  description: 'http.request + http.Agent({ keepAlive: true }), collect chunks, JSON.parse (POST: JSON.stringify, Content-Type and Content-Length set)',
  baseline: true,
  open(origin) {
    const agent = new http.Agent({ keepAlive: true });
    const { hostname, port } = new URL(origin);
    const target = { agent, hostname, port: Number(port) };
    return Promise.resolve({
      getJson: (path: string) => exchangeJson({ ...target, method: 'GET', path, headers: HEADERS }),
      postJson: (path: string, body: object) => {
        const text = JSON.stringify(body);
        const headers = { ...HEADERS, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) };
        return exchangeJson({ ...target, method: 'POST', path, headers }, text);
      },
      close: () => {
        agent.destroy();
        return Promise.resolve();
      },
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
          reject(asError(error));
        }
      });
    });
    req.once('error', reject);
    req.end(body);
  });
}
