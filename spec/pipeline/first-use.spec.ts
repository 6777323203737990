import { describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import { HttpBuilder, NetworkError, type Backend } from '../../lib/index.js';

// The retry loop loads at its first use (pipeline/stage-work.ts): with a retry policy, the first
// call of this file's module registry sends its first attempt at once, and the loop, once in,
// reads that attempt's failure, which came before it had loaded.

/** A port on 127.0.0.1 that nothing listens on (a connection to it is refused at once). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('parts loaded at their first use', () => {
  it('a retry policy: the first attempt fails before the loop has loaded, and is retried', async () => {
    let sent = 0;
    // a backend that throws at once: the attempt has failed long before the loop's module is in
    const backend: Backend = {
      name: 'throwing',
      send() {
        sent++;
        throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      },
      close: () => Promise.resolve(),
    };
    const http = HttpBuilder.configure((c) => {
      c.request.uri = 'http://127.0.0.1:9/';
      c.client.backend = backend;
      c.execution.retry = { limit: 2, backoff: () => 0 };
    });
    // no hooks: their stage would load the module before the attempt fails
    const failure = await http.get().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NetworkError);
    expect((failure as NetworkError).reason).toBe('refused');
    expect(sent).toBe(3);
    await http.close();
  });

  it('no retry policy: a failure is the error, typed, as the loop reads it', async () => {
    const port = await closedPort();
    const http = HttpBuilder.configure((c) => void (c.request.uri = `http://127.0.0.1:${port}/`));
    await expect(http.get()).rejects.toMatchObject({ name: 'NetworkError', reason: 'refused' });
    await http.close();
  });
});
