// The node transports' stall limits on a real socket: the usual case rides on the agent's own
// socket timeout (one listener per request), any other limit is armed per request.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { limitRequest } from '../../../lib/backends/node-limits.js';

let server: http.Server;
let port = 0;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/stall-body') {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('part');
    } // anything else: no answer at all
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** What a GET of `path` on `agent` ends with, under `limits`: the request's error or the body's. */
function outcome(agent: http.Agent, path: string, limits: { headersTimeout: number; bodyTimeout: number }, resetsTimeout = false): Promise<string> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.on('error', (error: NodeJS.ErrnoException) => resolve(`body ${error.code}`));
      res.resume();
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(`request ${error.code}`));
    limitRequest(req, limits, resetsTimeout);
  });
}

describe('limitRequest', () => {
  it("with the agent's own socket timeout: headers that never come, then a body that stalls", async () => {
    const agent = new http.Agent({ keepAlive: true, timeout: 120 });
    try {
      expect(await outcome(agent, '/never', { headersTimeout: 120, bodyTimeout: 120 })).toBe('request UND_ERR_HEADERS_TIMEOUT');
      expect(await outcome(agent, '/stall-body', { headersTimeout: 120, bodyTimeout: 120 })).toMatch(/UND_ERR_BODY_TIMEOUT$/);
    } finally {
      agent.destroy();
    }
  });

  it('limits other than the agent’s are armed per request, also when the transport resets the timeout', async () => {
    const agent = new http.Agent({ keepAlive: true });
    try {
      expect(await outcome(agent, '/never', { headersTimeout: 120, bodyTimeout: 0 })).toBe('request UND_ERR_HEADERS_TIMEOUT');
      expect(await outcome(agent, '/stall-body', { headersTimeout: 0, bodyTimeout: 120 }, true)).toMatch(/UND_ERR_BODY_TIMEOUT$/);
    } finally {
      agent.destroy();
    }
  });

  it("0 switches an agent's socket timeout off for that request", async () => {
    const agent = new http.Agent({ keepAlive: true, timeout: 100 });
    try {
      const result = await Promise.race([
        outcome(agent, '/never', { headersTimeout: 0, bodyTimeout: 0 }),
        new Promise<string>((resolve) => setTimeout(() => resolve('still waiting'), 400)),
      ]);
      expect(result).toBe('still waiting');
    } finally {
      agent.destroy();
    }
  });
});
