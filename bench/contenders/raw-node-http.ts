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
  description: 'http.request + http.Agent({ keepAlive: true }), collect chunks, JSON.parse',
  baseline: true,
  open(origin) {
    const agent = new http.Agent({ keepAlive: true });
    const { hostname, port } = new URL(origin);
    return Promise.resolve({
      getJson: (path: string) => getJson(agent, hostname, Number(port), path),
      close: () => {
        agent.destroy();
        return Promise.resolve();
      },
    });
  },
};

function getJson(agent: http.Agent, hostname: string, port: number, path: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = http.request({ method: 'GET', hostname, port, path, agent, headers: HEADERS }, (res) => {
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
    req.end();
  });
}
