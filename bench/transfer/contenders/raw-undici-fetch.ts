/**
 * `raw undici fetch` (information only, no pair): undici 7's `fetch` on an `Agent`, what the
 * library's fetch backend runs on. It shows what fetch itself costs in memory: it keeps a copy
 * of a streamed request body until the request is over (nodejs/undici#4058), which the fetch
 * backend inherits.
 *
 * @module
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import { RAW_HEADERS, UPLOAD_PATH, downloadUrl, handBuiltMultipart, type TransferContender } from '../contender.js';

const HEADERS = RAW_HEADERS('fetch');

/** `fetch(url, { dispatcher })`; download `pipeline(Readable.fromWeb(res.body), file)`; upload `body: Readable.from(multipart), duplex: 'half'`. */
export const rawUndiciFetchTransfer: TransferContender = {
  name: 'raw undici fetch',
  description:
    "undici 7 fetch(url, { dispatcher: new undici.Agent() }), fetch's defaults (redirect: 'follow'); download: pipeline(Readable.fromWeb(res.body), fs.createWriteStream(file)); upload: fetch(url, { method: 'POST', body: Readable.from(hand-built multipart), duplex: 'half', Content-Type, Content-Length }), await res.json() (information only)",
  async open(origin) {
    const { Agent, fetch } = await import('undici');
    const dispatcher = new Agent();
    return {
      async download(size, file) {
        const res = await fetch(downloadUrl(origin, size), { dispatcher, headers: HEADERS });
        if (res.status !== 200 || !res.body) throw new Error(`raw undici fetch: unexpected ${res.status}`);
        await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), createWriteStream(file));
      },
      async upload(source, size) {
        const body = handBuiltMultipart(source, size);
        const res = await fetch(origin + UPLOAD_PATH, {
          dispatcher,
          method: 'POST',
          headers: { ...HEADERS, 'Content-Type': body.contentType, 'Content-Length': String(body.length) },
          body: Readable.from(body.body),
          duplex: 'half',
        });
        if (res.status !== 200) throw new Error(`raw undici fetch: unexpected ${res.status}`);
        return res.json();
      },
      close: () => dispatcher.close(),
    };
  },
};
