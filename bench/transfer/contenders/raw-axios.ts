/**
 * `raw axios` in the transfer scenarios: axios with keep-alive agents, `responseType: 'stream'`
 * piped to the file, and a stream as the upload body.
 *
 * The upload sets `maxRedirects: 0`: with axios's default (redirects followed through
 * follow-redirects) a request body is kept in memory, chunk by chunk, so that it can be sent
 * again after a redirect, and anything over `maxBodyLength` (10 MB by default) is refused.
 * The library's axios backend sets `maxRedirects: 0` too.
 *
 * @module
 */
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DOWNLOAD_PATH, RAW_HEADERS, UPLOAD_PATH, handBuiltMultipart, type TransferContender } from '../contender.js';

/** `axios.create({ baseURL, httpAgent keepAlive })`; download `responseType: 'stream'`; upload `maxRedirects: 0`. */
export const rawAxiosTransfer: TransferContender = {
  name: 'raw axios',
  description:
    "axios.create({ baseURL, httpAgent keepAlive, same headers }); download: api.get(path, { responseType: 'stream' }), pipeline(res.data, fs.createWriteStream(file)); upload: api.post(path, Readable.from(hand-built multipart), { Content-Type, Content-Length, maxRedirects: 0 })",
  async open(origin) {
    const { default: axios } = await import('axios');
    const httpAgent = new http.Agent({ keepAlive: true });
    const api = axios.create({ baseURL: origin, httpAgent, headers: RAW_HEADERS('axios') });
    return {
      async download(size, file) {
        const res = await api.get<Readable>(DOWNLOAD_PATH, { params: { n: size }, responseType: 'stream' });
        await pipeline(res.data, createWriteStream(file));
      },
      async upload(source, size) {
        const body = handBuiltMultipart(source, size);
        const res = await api.post<unknown>(UPLOAD_PATH, Readable.from(body.body), {
          headers: { 'Content-Type': body.contentType, 'Content-Length': body.length },
          maxRedirects: 0,
        });
        return res.data;
      },
      close: () => {
        httpAgent.destroy();
        return Promise.resolve();
      },
    };
  },
};
