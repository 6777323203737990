// The stall limits of the library's node agents on one shared coarse clock (stall-timer.ts), and
// the idle limit as one timer per pooled socket (node-agents.ts): a stall is reported with the
// same error as before, never early and within two ticks of the limit; activity of any kind
// (a byte read or written, a new request on the socket) starts the silence again; a connection
// waiting in the pool closes after its idle limit, not before; no timer is left behind.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { keepingLimits } from '../../../lib/backends/node-agents.js';
import { AGENT_OPTIONS, limitRequest, stallClock } from '../../../lib/backends/node-limits.js';

const TICK = 20; // the clock's limits: 80 ms and more
const clock = stallClock(TICK);

let server: http.Server;
let port = 0;
const sockets = new Set<Socket>();
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/stall-body') {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('part');
    } else if (req.url === '/trickle') {
      // 10 bytes, one every 40 ms: 400 ms in all, never silent for 100 ms
      res.writeHead(200, { 'Content-Length': '10' });
      let sent = 0;
      const timer = setInterval(() => {
        res.write('x');
        if (++sent < 10) return;
        clearInterval(timer);
        res.end();
      }, 40);
    } else if (req.url === '/upload') {
      req.resume();
      req.on('end', () => res.end('got it'));
    } else if (req.url === '/later') {
      setTimeout(() => res.end('later'), 50);
    } else if (req.url === '/hint') {
      res.writeHead(200, { 'Keep-Alive': 'timeout=2', 'Content-Length': '2' }).end('ok');
    } else if (req.url === '/ok') {
      res.end('ok');
    } // anything else: no answer at all
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const agents: http.Agent[] = [];
afterEach(() => {
  for (const agent of agents.splice(0)) agent.destroy();
});

/** An agent as the library makes them (no socket timeout), its sockets on the test's clock. */
function clockedAgent(idleMs = 4000): http.Agent {
  const agent = keepingLimits(new http.Agent(AGENT_OPTIONS), idleMs, clock);
  agents.push(agent);
  return agent;
}

interface Outcome {
  readonly result: string;
  readonly ms: number;
}

/** What a request ends with under `limits` (the body read to its end), and after how long. */
function outcome(
  agent: http.Agent,
  path: string,
  limits: { headersTimeout: number; bodyTimeout: number },
  send: (req: http.ClientRequest) => void = (req) => req.end(),
): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const done = (result: string) => resolve({ result, ms: performance.now() - started });
    const req = http.request({ host: '127.0.0.1', port, path, agent, method: path === '/upload' ? 'POST' : 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(`body ${Buffer.concat(chunks).toString()}`));
      res.on('error', (error: NodeJS.ErrnoException) => done(`body ${error.code}: ${error.message}`));
    });
    req.on('error', (error: NodeJS.ErrnoException) => done(`request ${error.code}: ${error.message}`));
    limitRequest(req, limits);
    send(req);
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the shared stall clock', () => {
  it('headers that never come: the request fails as before, not before the limit and within two ticks after it', async () => {
    const { result, ms } = await outcome(clockedAgent(), '/never', { headersTimeout: 100, bodyTimeout: 100 });
    expect(result).toBe('request UND_ERR_HEADERS_TIMEOUT: no response headers arrived within 100 ms');
    expect(ms).toBeGreaterThanOrEqual(100);
    expect(ms).toBeLessThan(100 + 2 * TICK + 150); // two ticks, and a busy machine's slack
  });

  it('a body that stalls: the body fails with the read error, the request had its response', async () => {
    const { result, ms } = await outcome(clockedAgent(), '/stall-body', { headersTimeout: 100, bodyTimeout: 100 });
    // node reports the destroyed body on the request too, either may come first (as with a socket timeout)
    expect(result).toMatch(/^(body|request) UND_ERR_BODY_TIMEOUT: no more of the response body arrived within 100 ms$/);
    expect(ms).toBeGreaterThanOrEqual(100);
  });

  it('a body that keeps coming, slower than the limit in all, is silent for less than it: read through', async () => {
    const { result, ms } = await outcome(clockedAgent(), '/trickle', { headersTimeout: 100, bodyTimeout: 100 });
    expect(result).toBe('body xxxxxxxxxx');
    expect(ms).toBeGreaterThan(300);
  });

  it('an upload that keeps going counts as activity before the response headers', async () => {
    const upload = async (req: http.ClientRequest) => {
      for (let i = 0; i < 8; i++) {
        req.write('chunk');
        await pause(40);
      }
      req.end();
    };
    const { result } = await outcome(clockedAgent(), '/upload', { headersTimeout: 100, bodyTimeout: 100 }, (req) => void upload(req));
    expect(result).toBe('body got it');
  });

  it('a request on a connection that waited in the pool longer than its limit starts its own silence', async () => {
    const agent = clockedAgent();
    expect((await outcome(agent, '/ok', { headersTimeout: 100, bodyTimeout: 100 })).result).toBe('body ok');
    await pause(250); // the clock saw no activity on the pooled socket for 250 ms
    // nothing written for 60 ms (node sends the head with the end): the request itself is the activity
    const endLater = (req: http.ClientRequest) => void setTimeout(() => req.end(), 60);
    const { result } = await outcome(agent, '/later', { headersTimeout: 100, bodyTimeout: 100 }, endLater);
    expect(result).toBe('body later');
  });

  it('a limit shorter than four ticks gets a precise timer of its own; 0 is none', async () => {
    const agent = clockedAgent();
    const short = await outcome(agent, '/never', { headersTimeout: 30, bodyTimeout: 0 });
    expect(short.result).toBe('request UND_ERR_HEADERS_TIMEOUT: no response headers arrived within 30 ms');
    expect(short.ms).toBeLessThan(500);
    const none = await Promise.race([outcome(agent, '/never', { headersTimeout: 0, bodyTimeout: 0 }), pause(300).then(() => 'still waiting')]);
    expect(none).toBe('still waiting');
  });

  it('a short body limit with a long headers limit: each phase by its own means', async () => {
    const { result, ms } = await outcome(clockedAgent(), '/stall-body', { headersTimeout: 5000, bodyTimeout: 30 });
    expect(result).toMatch(/^(body|request) UND_ERR_BODY_TIMEOUT: no more of the response body arrived within 30 ms$/);
    expect(ms).toBeLessThan(500);
  });

  it('runs only while it watches sockets, and keeps no process alive', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
    const before = timers();
    const agent = clockedAgent();
    await outcome(agent, '/ok', { headersTimeout: 100, bodyTimeout: 100 });
    expect(clock.running).toBe(true);
    expect(timers()).toBe(before); // the clock's timer and the idle timer are unref'd
    agent.destroy();
    await pause(10);
    expect(clock.size).toBe(0);
    expect(clock.running).toBe(false);
  });
});

describe('the idle limit of a pooled connection', () => {
  it('closes it after the limit, not before, and the next request opens a new one', async () => {
    const agent = clockedAgent(150);
    await outcome(agent, '/ok', { headersTimeout: 1000, bodyTimeout: 1000 });
    await pause(90);
    expect(sockets.size).toBe(1);
    await pause(200);
    expect(sockets.size).toBe(0);
    expect(Object.keys(agent.freeSockets)).toEqual([]);
    expect((await outcome(agent, '/ok', { headersTimeout: 1000, bodyTimeout: 1000 })).result).toBe('body ok');
  });

  it('starts again each time the connection comes back to the pool', async () => {
    const agent = clockedAgent(150);
    for (let i = 0; i < 4; i++) {
      await outcome(agent, '/ok', { headersTimeout: 1000, bodyTimeout: 1000 });
      await pause(100); // 400 ms in all, never 150 ms idle at once
    }
    expect(sockets.size).toBe(1);
  });

  it("a server's shorter Keep-Alive hint wins, less node's second of margin", async () => {
    const agent = clockedAgent(4000);
    await outcome(agent, '/hint', { headersTimeout: 1000, bodyTimeout: 1000 });
    await pause(800);
    expect(sockets.size).toBe(1);
    await pause(400); // 1200 ms: past the hint's 2 s less 1 s, short of 4 s
    expect(sockets.size).toBe(0);
  });
});
