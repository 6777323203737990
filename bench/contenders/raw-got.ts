/**
 * `raw got`: got used the way its users usually do, with keep-alive agents added.
 *
 * @module
 */
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DOWNLOAD_PATH, UPLOAD_PATH, closeAgents, handBuiltMultipart, libraryLikeHeaders, type Contender } from '../contender.js';

/** `got.extend({ agent: { http, https } keep-alive, headers })`: got's defaults otherwise (redirects, decompression, retries, HTTP errors thrown). */
export const rawGot: Contender = {
  name: 'raw got',
  description: {
    requests:
      'got.extend({ agent: { http, https } keepAlive, same headers }), await api.get(origin + path).json() / api.post(url, { json: object }).json(); got defaults otherwise',
    transfers:
      'the same instance; download: pipeline(api.stream(url), fs.createWriteStream(file)); upload: api.post(url, { body: Readable.from(hand-built multipart), Content-Type, Content-Length }).json()',
  },
  async open(origin) {
    const { default: got } = await import('got');
    const agent = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
    const api = got.extend({ agent, headers: libraryLikeHeaders('got') });
    return {
      getJson: (path) => api.get(origin + path).json<unknown>(),
      postJson: (path, body) => api.post(origin + path, { json: body }).json<unknown>(),
      download: (size, file) => pipeline(api.stream(`${origin}${DOWNLOAD_PATH}?n=${size}`), createWriteStream(file)),
      upload: (source, size) => {
        const { headers, body } = handBuiltMultipart(source, size);
        return api.post(origin + UPLOAD_PATH, { body: Readable.from(body), headers }).json<unknown>();
      },
      close: closeAgents(agent.http, agent.https),
    };
  },
};
