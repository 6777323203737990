import { expect, it } from '@jest/globals';
import { HttpBuilder, NetworkError, type Backend } from '../../lib/index.js';

it('a custom backend that throws instead of rejecting still gets the retry rules (the one resend of a reused connection)', async () => {
  let calls = 0;
  let reusedConnection = true;
  const backend: Backend = {
    name: 'throws',
    send() {
      calls++;
      throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET', reusedConnection });
    },
    close: () => Promise.resolve(),
  };
  const http = HttpBuilder.configure((c) => {
    c.request.uri = 'http://127.0.0.1:9/'; // never contacted: the backend is in memory
    c.client.backend = backend;
  });
  await expect(http.get()).rejects.toBeInstanceOf(NetworkError);
  expect(calls).toBe(2);
  calls = 0;
  await expect(http.get((c) => void (c.execution.retry = { limit: 2, backoff: () => 0 }))).rejects.toBeInstanceOf(NetworkError);
  expect(calls).toBe(4); // two policy retries and the stale-connection resend
  // a reset of a connection that was not reused is final
  calls = 0;
  reusedConnection = false;
  await expect(http.get()).rejects.toMatchObject({ reason: 'reset' });
  expect(calls).toBe(1);
});
