/**
 * A backend that answers at once from memory, as the benchmark server would (same bodies, same
 * headers): what is left of a call through it is the library's own work. For `overhead.ts`
 * and `cold-overhead.ts`.
 *
 * @module
 */
import { Readable } from 'node:stream';
import type { Backend, WireRequest, WireResponse } from '../lib/index.js';
import { POST_DOCUMENT } from './scenarios.js';

const SMALL = Buffer.from(JSON.stringify({ id: 42, name: 'httpbuilder-ts', ok: true, tags: ['bench', 'small'], score: 3.14, note: 'abcdefghij' }));
const ECHO = Buffer.from(JSON.stringify(POST_DOCUMENT));

/** Requests as the memory backend sees them, for driving it without the library. */
export const GET_WIRE: WireRequest = { method: 'GET', url: 'http://127.0.0.1:8080/small.json', secure: false, hostname: '127.0.0.1', port: 8080, target: '/small.json', headers: {}, body: undefined };
export const POST_WIRE: WireRequest = { ...GET_WIRE, method: 'POST', url: 'http://127.0.0.1:8080/echo', target: '/echo' };

/** Answers GET with the small document and POST with the echo, as the benchmark server does (headers included). */
export const memoryBackend: Backend = {
  name: 'memory',
  send(request: WireRequest): Promise<WireResponse> {
    const body = request.method === 'POST' ? ECHO : SMALL;
    return Promise.resolve({
      status: 200,
      reason: 'OK',
      headers: [
        ['Content-Type', 'application/json'],
        ['Content-Length', String(body.byteLength)],
        ['Date', 'Sun, 22 Nov 2026 09:00:00 GMT'],
        ['Connection', 'keep-alive'],
        ['Keep-Alive', 'timeout=120'],
      ],
      body: Readable.from([body]),
      decoded: false,
      discard: () => {},
      readAll: () => Promise.resolve(body),
    });
  },
  close: () => Promise.resolve(),
};
