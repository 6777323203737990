// Retry-After on the MockBackend: which wait the retry loop takes, with no transport in the way.
import { expect, it } from '@jest/globals';
import { pipeline } from './kit.js';

pipeline('Retry-After and the backoff', (kit) => {
  /** One 503 with `retryAfter`, then 200; what `beforeRetry` was told and how long the call took. */
  const retried = async (retryAfter: string, backoff: number) => {
    kit.mock.on('GET', '/busy').reply(503, 'busy', { 'retry-after': retryAfter });
    kit.mock.on('GET', '/busy').reply(200, 'ok');
    const delays: number[] = [];
    const client = kit.client((c) => {
      c.execution.retry = { limit: 1, backoff: () => backoff };
      c.execution.hooks = { beforeRetry: (_attempt, { delay }) => void delays.push(delay) };
    });
    const started = Date.now();
    expect(await client.get((c) => void (c.request.uri.path = '/busy'))).toBe('ok');
    return { delays, took: Date.now() - started };
  };

  it.each(['-1', '+2', '1.5', '5 May', 'soon'])('a Retry-After of %j is no wait it understands: the backoff applies', async (retryAfter) => {
    const { delays, took } = await retried(retryAfter, 60);
    expect(delays).toEqual([60]);
    expect(took).toBeGreaterThanOrEqual(55);
  });

  it('a Retry-After within maxRetryAfter replaces the backoff, and is waited', async () => {
    const { delays, took } = await retried('1', 5000);
    expect(delays).toEqual([1000]);
    expect(took).toBeGreaterThanOrEqual(990);
    expect(took).toBeLessThan(2500);
  });
});
