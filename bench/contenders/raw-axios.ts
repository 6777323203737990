/**
 * `raw axios`: axios used the way its users usually do, with keep-alive agents added.
 *
 * The upload sets `maxRedirects: 0`: with axios's default (redirects followed through
 * follow-redirects) a request body is kept in memory, chunk by chunk, so that it can be sent
 * again after a redirect, and anything over `maxBodyLength` (10 MB) is refused. The library's
 * axios backend sets `maxRedirects: 0` too.
 *
 * @module
 */
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DOWNLOAD_PATH, UPLOAD_PATH, closeAgents, handBuiltMultipart, libraryLikeHeaders, type Contender } from '../contender.js';

/** `axios.create` with keep-alive agents and the same headers; axios's defaults otherwise (redirects, decompression, status check, `responseType: 'json'`). */
export const rawAxios: Contender = {
  name: 'raw axios',
  description: {
    requests:
      "axios.create({ baseURL, httpAgent/httpsAgent keepAlive, same headers, responseType: 'json' }), (await api.get(path)).data / (await api.post(path, object)).data; axios defaults otherwise (redirects followed, decompress)",
    transfers:
      "the same instance; download: api.get(path, { responseType: 'stream' }), pipeline(res.data, fs.createWriteStream(file)); upload: api.post(path, Readable.from(hand-built multipart), { Content-Type, Content-Length, maxRedirects: 0 })",
  },
  async open(origin) {
    const { default: axios } = await import('axios');
    const httpAgent = new http.Agent({ keepAlive: true });
    const httpsAgent = new https.Agent({ keepAlive: true });
    const api = axios.create({ baseURL: origin, httpAgent, httpsAgent, headers: libraryLikeHeaders('axios'), responseType: 'json' });
    return {
      getJson: async (path) => (await api.get<unknown>(path)).data,
      // axios serialises a plain object as JSON and sets Content-Type itself
      postJson: async (path, body) => (await api.post<unknown>(path, body)).data,
      async download(size, file) {
        const res = await api.get<Readable>(DOWNLOAD_PATH, { params: { n: size }, responseType: 'stream' });
        await pipeline(res.data, createWriteStream(file));
      },
      async upload(source, size) {
        const { headers, body } = handBuiltMultipart(source, size);
        return (await api.post<unknown>(UPLOAD_PATH, Readable.from(body), { headers, maxRedirects: 0 })).data;
      },
      close: closeAgents(httpAgent, httpsAgent),
    };
  },
};
