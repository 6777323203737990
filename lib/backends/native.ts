import http from 'node:http';
import https from 'node:https';
import type { Backend, TlsOptions, WireRequest, WireResponse } from './backend.js';

/** Bytes worth draining to keep a connection instead of closing it. */
const DRAIN_LIMIT = 64 * 1024;

/**
 * The default backend: Node's own `node:http`/`node:https`, one keep-alive pool per client.
 * Transport only: every header and the body arrive decided; this writes them and hands back
 * the response stream untouched (no decompression, no status checks).
 */
export class NativeBackend implements Backend {
  readonly name = 'native';
  readonly #httpAgent: http.Agent;
  readonly #httpsAgent: https.Agent;

  constructor(options: { tls: TlsOptions | undefined }) {
    this.#httpAgent = new http.Agent({ keepAlive: true });
    this.#httpsAgent = new https.Agent({ keepAlive: true, ...nodeTls(options.tls) });
  }

  send(request: WireRequest): Promise<WireResponse> {
    return new Promise((resolve, reject) => {
      const transport = request.secure ? https : http;
      const req = transport.request({
        method: request.method,
        // node wants IPv6 literals without brackets
        hostname: request.hostname.startsWith('[') ? request.hostname.slice(1, -1) : request.hostname,
        port: request.port,
        path: request.target,
        headers: request.headers,
        agent: request.secure ? this.#httpsAgent : this.#httpAgent,
      });
      req.on('error', reject);
      req.once('response', (res) => {
        // an error on a body nobody reads (discarded, or after a handler failed) must not crash
        // the process; readers still see it through iteration
        res.on('error', () => {});
        resolve({
          status: res.statusCode ?? 0,
          reason: res.statusMessage ?? '',
          headers: pairs(res.rawHeaders),
          body: res,
          decoded: false,
          discard: () => {
            if (res.readableEnded) return;
            // the socket goes back to the pool on 'end': drain a small untouched rest to get
            // there; a large or unknown one costs more than a new connection, and once a reader
            // attached resume() is ignored (a 'readable' listener wins): close instead
            const untouched = !res.readableDidRead && res.listenerCount('readable') === 0;
            if (untouched && (res.complete || Number(res.headers['content-length']) <= DRAIN_LIMIT)) res.resume();
            else res.destroy();
          },
          readAll: () => readAll(res),
        });
      });
      const body = request.body;
      // in memory or none: write it now, no async step (the common case, and the cheapest)
      if (body === undefined) req.end();
      else if (body.bytes !== undefined) req.end(body.bytes);
      else streamBody(req, body).catch((error: unknown) => req.destroy(error as Error));
    });
  }

  close(): Promise<void> {
    this.#httpAgent.destroy();
    this.#httpsAgent.destroy();
    return Promise.resolve();
  }
}

async function streamBody(req: http.ClientRequest, body: AsyncIterable<Uint8Array>): Promise<void> {
  for await (const chunk of body) {
    if (!req.write(chunk)) await drained(req);
  }
  req.end();
}

/** The whole body with plain events: one promise instead of one per chunk through the stream iterator. */
function readAll(res: http.IncomingMessage): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    res.once('error', reject);
    // 'end' never comes for a body cut short without an error on some node versions
    res.once('close', () => {
      if (!res.complete) reject(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    });
  });
}

function drained(req: http.ClientRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      req.off('close', onClose);
      resolve();
    };
    const onClose = () => {
      req.off('drain', onDrain);
      reject(new Error('request closed while writing the body'));
    };
    req.once('drain', onDrain);
    req.once('close', onClose);
  });
}

/** node's agent wants Buffers where the contract allows any Uint8Array. */
function nodeTls(tls: TlsOptions | undefined): https.AgentOptions {
  if (!tls) return {};
  const bytes = (value: string | Uint8Array) => (typeof value === 'string' ? value : Buffer.from(value));
  return {
    ...tls,
    ca: tls.ca === undefined ? undefined : typeof tls.ca === 'string' || tls.ca instanceof Uint8Array ? bytes(tls.ca) : (tls.ca).map(bytes),
    cert: tls.cert === undefined ? undefined : bytes(tls.cert),
    key: tls.key === undefined ? undefined : bytes(tls.key),
  };
}

function pairs(raw: string[]): Array<readonly [string, string]> {
  const out: Array<readonly [string, string]> = [];
  for (let i = 0; i < raw.length; i += 2) out.push([raw[i], raw[i + 1]]);
  return out;
}
