import { describe, expect, it } from '@jest/globals';
import { LazyHttp2Pool } from '../../../lib/backends/lazy-http2-pool.js';
import { isClientClosed, type TransportOptions, type WireRequest } from '../../../lib/model/backend.js';

// the native backend's HTTP/2 sessions load node:http2 with the first request (spec/conformance/http2*.spec.ts send through them)
describe('LazyHttp2Pool', () => {
  it('a request that waits for the HTTP/2 code when close() comes fails as closed, and nothing is sent', async () => {
    const pool = new LazyHttp2Pool({} as TransportOptions);
    let sentOverHttp1 = 0;
    const sending = pool.send({ hostname: '127.0.0.1', port: 1, secure: true } as WireRequest, () => {
      sentOverHttp1++;
      return Promise.reject(new Error('not expected'));
    });
    pool.close();
    const error = await sending.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isClientClosed(error)).toBe(true);
    expect(sentOverHttp1).toBe(0);
  });
});
