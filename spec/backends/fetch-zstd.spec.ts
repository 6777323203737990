import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { fetch as undiciFetch } from 'undici';
import '../../lib/index.js';
import { fetchInUse, wireResponse } from '../../lib/backends/fetch-response.js';

// Whether fetch undid a zstd body itself, as the fetch backend tells the pipeline (which then
// does not decode it again), checked against what each fetch really hands over on this runtime.
const zstdCompressSync = (zlib as { zstdCompressSync?: (data: string) => Buffer }).zstdCompressSync;
/** 'x' × 1000 as one zstd frame, made beforehand: Node 20 cannot make one */
const FRAME = zstdCompressSync?.('x'.repeat(1000)) ?? Buffer.from('KLUv/WDoAk0AABB4eAEA4yuABQ==', 'base64');

describe('the fetch backend: whether fetch undid zstd itself', () => {
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    server = http.createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Encoding': 'zstd' });
      response.end(FRAME);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const fetches = [
    ['the undici package', true, undiciFetch as unknown as typeof globalThis.fetch],
    [`the global fetch (undici ${process.versions.undici})`, false, globalThis.fetch],
  ] as const;
  for (const [name, undiciPackage, fetch] of fetches) {
    it(`${name}: decoded exactly when it hands over the decoded text`, async () => {
      fetchInUse(undiciPackage);
      const wire = wireResponse(await fetch(url));
      const text = Buffer.from(await wire.readAll!()).toString('latin1');
      expect(wire.decoded).toBe(text === 'x'.repeat(1000));
      expect(wire.decoded || text === FRAME.toString('latin1')).toBe(true);
    });
  }
});
