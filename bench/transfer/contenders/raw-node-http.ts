/**
 * `raw node:http` in the transfer scenarios: the baseline, node's client with a keep-alive
 * agent, `stream.pipeline` to and from the file.
 *
 * @module
 */
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import { pipeline } from 'node:stream/promises';
import { DOWNLOAD_PATH, RAW_HEADERS, UPLOAD_PATH, handBuiltMultipart, type TransferContender } from '../contender.js';

const HEADERS = RAW_HEADERS('node-http');

/** `http.request` + `http.Agent({ keepAlive: true })`; `pipeline(res, createWriteStream(file))`; `pipeline(multipart body, req)`. */
export const rawNodeHttpTransfer: TransferContender = {
  name: 'raw node:http',
  description:
    'http.request + http.Agent({ keepAlive: true }); download: pipeline(res, fs.createWriteStream(file)); upload: pipeline(hand-built multipart around fs.createReadStream(path), req) with Content-Length',
  baseline: true,
  open(origin) {
    const agent = new http.Agent({ keepAlive: true });
    const { hostname, port } = new URL(origin);
    const request = (method: string, path: string, headers: Record<string, string | number>) =>
      http.request({ method, hostname, port: Number(port), path, agent, headers: { ...HEADERS, ...headers } });
    return Promise.resolve({
      async download(size, file) {
        const req = request('GET', `${DOWNLOAD_PATH}?n=${size}`, {});
        req.end();
        const res = await response(req);
        await pipeline(res, createWriteStream(file));
      },
      async upload(source, size) {
        const body = handBuiltMultipart(source, size);
        const req = request('POST', UPLOAD_PATH, { 'Content-Type': body.contentType, 'Content-Length': body.length });
        const answer = response(req);
        await pipeline(body.body, req);
        const res = await answer;
        const chunks: Buffer[] = [];
        for await (const chunk of res) chunks.push(chunk as Buffer);
        return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
      },
      close: () => {
        agent.destroy();
        return Promise.resolve();
      },
    });
  },
};

/** The response of `req`, rejected unless it is a 200 (then its body is drained). */
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
