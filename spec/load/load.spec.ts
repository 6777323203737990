import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { HttpBuilder, HttpBuilderError } from '../../lib/index.js';
import { BACKENDS } from '../conformance/backends.js';
import { expectNoUnhandledRejections } from '../support/unhandled-rejections.js';

const REQUESTS = 20_000;
const CONCURRENCY = 64;
const RESET_EVERY = 100; // 1% of requests have their connection reset instead of an answer

// a full GC on demand, without a node flag on the test command
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/**
 * 20,000 requests at concurrency 64 on one client, against a server that resets 1% of
 * connections: every request settles (a result or a typed error), nothing hangs, nothing is
 * left open after close(), and memory stays flat. Figures go to the console for the record.
 */
describe('load: 20,000 requests, concurrency 64, 1% of connections reset', () => {
  let server: http.Server;
  let url: string;
  let served = 0;
  const sockets = new Set<Socket>();
  expectNoUnhandledRejections();

  beforeAll(async () => {
    server = http.createServer({ keepAliveTimeout: 5000 }, (req, res) => {
      if (++served % RESET_EVERY === 0) {
        req.socket.resetAndDestroy();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true,"n":1}');
    });
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  for (const backend of BACKENDS) {
    it(`${backend.name}: every request settles, typed; nothing left open; memory flat`, async () => {
      served = 0;
      const client = HttpBuilder.configure((c) => {
        c.request.uri = url;
        c.client.backend = backend.choice;
        c.execution.timeout = { total: 10_000 };
      });
      // warm up first: loading the backend's package (and jest's copy of it) is not a leak
      for (let i = 0; i < 200; i++) await client.get().catch(() => undefined);
      gc();
      const heapBefore = process.memoryUsage().heapUsed;
      const rssBefore = process.memoryUsage().rss;
      let peakRss = rssBefore;
      const outcomes = new Map<string, number>();
      const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      let next = 0;
      const started = Date.now();
      const worker = async () => {
        while (next < REQUESTS) {
          next++;
          try {
            const body = (await client.get()) as { ok?: boolean };
            count(body.ok === true ? 'ok' : 'wrong body');
          } catch (error) {
            count(error instanceof HttpBuilderError ? `${error.name}${'reason' in error ? `(${String(error.reason)})` : ''}` : `untyped ${String(error)}`);
          }
          if (next % 1000 === 0) peakRss = Math.max(peakRss, process.memoryUsage().rss);
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      const ms = Date.now() - started;
      await client.close();
      await new Promise((resolve) => setTimeout(resolve, 100)); // let the closes reach the server
      gc();
      await new Promise((resolve) => setTimeout(resolve, 100)); // finalizers (undici registers every response) run in between
      gc();
      const heapGrowth = process.memoryUsage().heapUsed - heapBefore;

      const settled = [...outcomes.values()].reduce((a, b) => a + b, 0);
      const summary = Object.fromEntries(outcomes);
      console.log(
        `load ${backend.name}: ${settled} requests in ${ms} ms (${Math.round((settled * 1000) / ms)}/s), server answered ${served}, outcomes ${JSON.stringify(summary)}, ` +
          `RSS ${mib(rssBefore)} → peak ${mib(peakRss)} MiB, heap after GC ${heapGrowth >= 0 ? '+' : ''}${mib(heapGrowth)} MiB, open server connections after close: ${sockets.size}`,
      );
      expect(settled).toBe(REQUESTS);
      expect([...outcomes.keys()].filter((key) => key !== 'ok' && key !== 'NetworkError(reset)')).toEqual([]);
      expect(outcomes.get('ok')).toBeGreaterThanOrEqual(REQUESTS * 0.97);
      expect(sockets.size).toBe(0);
      // flat: what is still reachable after a full GC did not grow with the requests (RSS peaks are garbage not yet collected)
      expect(heapGrowth).toBeLessThan(16 * 1024 * 1024);
    }, 120_000);
  }
});

function mib(bytes: number): number {
  return Math.round(bytes / 1024 / 1024);
}
