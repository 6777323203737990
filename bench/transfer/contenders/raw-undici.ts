/**
 * `raw undici`: undici 7's `request()` (its dispatcher API, not its fetch) on an `Agent`, the
 * response body piped to the file and the upload body an async iterable.
 *
 * @module
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { RAW_HEADERS, UPLOAD_PATH, downloadUrl, handBuiltMultipart, type TransferContender } from '../contender.js';

const HEADERS = RAW_HEADERS('undici');

/** `undici.request(url, { dispatcher: new Agent() })`; `pipeline(body, createWriteStream(file))`; upload body `Readable.from(multipart)`. */
export const rawUndiciTransfer: TransferContender = {
  name: 'raw undici',
  description:
    'undici 7 request(url, { dispatcher: new undici.Agent() }); download: pipeline(body, fs.createWriteStream(file)); upload: body = Readable.from(hand-built multipart around fs.createReadStream(path)) with Content-Length, await body.json()',
  async open(origin) {
    const { Agent, request } = await import('undici');
    const dispatcher = new Agent();
    return {
      async download(size, file) {
        const res = await request(downloadUrl(origin, size), { dispatcher, headers: HEADERS });
        if (res.statusCode !== 200) {
          await res.body.dump();
          throw new Error(`raw undici: unexpected ${res.statusCode}`);
        }
        await pipeline(res.body, createWriteStream(file));
      },
      async upload(source, size) {
        const body = handBuiltMultipart(source, size);
        const res = await request(origin + UPLOAD_PATH, {
          dispatcher,
          method: 'POST',
          headers: { ...HEADERS, 'Content-Type': body.contentType, 'Content-Length': String(body.length) },
          body: Readable.from(body.body),
        });
        if (res.statusCode !== 200) {
          await res.body.dump();
          throw new Error(`raw undici: unexpected ${res.statusCode}`);
        }
        return res.body.json();
      },
      close: () => dispatcher.close(),
    };
  },
};
