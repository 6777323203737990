// MockBackend has no connection: its attempts' timings are the pipeline's own instants (start,
// response, end), with the phases those give, and no socket, connection or upload instants.
import { describe, expect, it } from '@jest/globals';
import { HttpBuilder, HttpException, withResponse } from '../../lib/index.js';
import { MockBackend } from '../../lib/testing.js';

function clientOf(mock: MockBackend): HttpBuilder {
  return HttpBuilder.configure((c) => {
    c.request.uri = 'https://api.example.com';
    c.client.backend = mock;
  });
}

describe('MockBackend timings', () => {
  it('a reply: start, response and end, the delay in firstByte; no socket, connection or upload', async () => {
    const mock = new MockBackend();
    mock.on('GET', '/users/42').delay(30).reply(200, { id: 42 });
    const { body, timings } = await clientOf(mock).get(withResponse(), (c) => void (c.request.uri.path = '/users/42'));
    expect(body).toEqual({ id: 42 });
    expect(timings).toMatchObject({ start: expect.any(Number), response: expect.any(Number), end: expect.any(Number) });
    for (const absent of ['socket', 'lookup', 'connect', 'secureConnect', 'upload', 'error'] as const) expect(timings![absent]).toBeUndefined();
    expect(Object.keys(timings!.phases).sort()).toEqual(['download', 'firstByte', 'total']);
    expect(timings!.phases.firstByte).toBeGreaterThanOrEqual(25);
    expect(timings!.phases.total).toBeCloseTo(timings!.end! - timings!.start, 6);
  });

  it('an HttpException from a mock reply carries its timings', async () => {
    const mock = new MockBackend();
    mock.on('GET', '/gone').reply(410, 'gone');
    const error = await clientOf(mock)
      .get((c) => void (c.request.uri.path = '/gone'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpException);
    expect((error as HttpException).timings).toMatchObject({ response: expect.any(Number), end: expect.any(Number) });
  });
});
