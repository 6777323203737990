/**
 * `raw got` in the transfer scenarios: got with keep-alive agents, `got.stream` piped to the
 * file, and a stream as the upload body.
 *
 * @module
 */
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { RAW_HEADERS, UPLOAD_PATH, downloadUrl, handBuiltMultipart, type TransferContender } from '../contender.js';

/** `got.extend({ agent keepAlive })`; `pipeline(api.stream(url), createWriteStream(file))`; `api.post(url, { body: stream }).json()`. */
export const rawGotTransfer: TransferContender = {
  name: 'raw got',
  description:
    'got.extend({ agent: { http } keepAlive, same headers }); download: pipeline(api.stream(url), fs.createWriteStream(file)); upload: api.post(url, { body: Readable.from(hand-built multipart), Content-Type, Content-Length }).json()',
  async open(origin) {
    const { default: got } = await import('got');
    const agent = { http: new http.Agent({ keepAlive: true }) };
    const api = got.extend({ agent, headers: RAW_HEADERS('got') });
    return {
      download: (size, file) => pipeline(api.stream(downloadUrl(origin, size)), createWriteStream(file)),
      upload: (source, size) => {
        const body = handBuiltMultipart(source, size);
        return api
          .post(origin + UPLOAD_PATH, {
            body: Readable.from(body.body),
            headers: { 'Content-Type': body.contentType, 'Content-Length': String(body.length) },
          })
          .json<unknown>();
      },
      close: () => {
        agent.http.destroy();
        return Promise.resolve();
      },
    };
  },
};
