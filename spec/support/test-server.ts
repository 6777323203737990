import * as http from 'node:http';
import * as http2 from 'node:http2';
import type { Socket } from 'node:net';
import { inspect } from 'node:util';
import { mismatches, sameRoute, type Expectation } from './expectation-match.js';
import { recordRequest, type RecordedRequest } from './recorded-request.js';
import { writeResponse, type ResponseSpec } from './response-writer.js';
import { selfSignedCertificate } from './tls-certificate.js';
import { unmatchedReport } from './unmatched-report.js';

export type { Expectation } from './expectation-match.js';
export type { RecordedRequest } from './recorded-request.js';
export type { ResponseSpec } from './response-writer.js';

/** What {@link TestServer.expect} returns. */
export interface ExpectationHandle {
  /** How many requests this expectation has answered so far (live). */
  readonly calls: number;
}

interface Registered {
  expectation: Expectation;
  calls: number;
}

// Lenient parsing so that fault tests can send odd requests and still see them recorded;
// joinDuplicateHeaders keeps node from silently dropping repeated headers in req.headers.
const serverOptions = { requireHostHeader: false, joinDuplicateHeaders: true } as const;

/**
 * A real HTTP + HTTPS server on 127.0.0.1 that answers registered expectations and records
 * every request. Unmatched requests get a 404 whose text/plain body explains why. The HTTPS
 * listener offers ALPN `h2` and `http/1.1`, as nginx's `listen ... ssl http2` does: a client
 * with `client.http2` speaks HTTP/2 to it, every other client HTTP/1.1.
 */
export class TestServer {
  /** Connections open right now (both listeners): a leaked client socket stays counted. */
  get openConnections(): number {
    return this.#sockets.size;
  }

  /** Every request received, in order (cleared in place by {@link reset}). */
  readonly requests: RecordedRequest[] = [];
  /** The PEM certificate of the HTTPS listener; clients pass it as `ca`. */
  readonly ca: string;
  readonly #expectations: Registered[] = [];
  readonly #sockets = new Set<Socket>();
  readonly #http: http.Server;
  readonly #https: http2.Http2SecureServer;
  #closing: Promise<void> | undefined;
  // Kept after close() so a closed server's URL still names a port (connection-refused tests).
  #httpPort = 0;
  #httpsPort = 0;

  private constructor(key: string, cert: string) {
    this.ca = cert;
    this.#http = http.createServer(serverOptions, (req, res) => this.#receive(req, res, false));
    this.#https = http2.createSecureServer({ key, cert, allowHTTP1: true }, (req, res) => this.#receive(req, res, true));
    // The HTTP/1.1 side of an HTTP/2 server reads these from the server, with no defaults of its own.
    Object.assign(this.#https, serverOptions, { keepAliveTimeout: this.#http.keepAliveTimeout });
    // Raw TCP sockets (TLS ones included, and those still handshaking) so close() can end them all.
    for (const server of [this.#http, this.#https]) {
      server.on('connection', (socket: Socket) => {
        this.#sockets.add(socket);
        socket.once('close', () => this.#sockets.delete(socket));
      });
    }
  }

  /** Starts both listeners on 127.0.0.1 with ports chosen by the OS. */
  static async start(): Promise<TestServer> {
    const { key, cert } = await selfSignedCertificate();
    const server = new TestServer(key, cert);
    [server.#httpPort, server.#httpsPort] = await Promise.all([listen(server.#http), listen(server.#https)]);
    return server;
  }

  /** e.g. `http://127.0.0.1:41234` */
  get httpUrl(): string {
    return `http://127.0.0.1:${this.#httpPort}`;
  }

  /** e.g. `https://127.0.0.1:43210`; the certificate covers both `127.0.0.1` and `localhost`. */
  get httpsUrl(): string {
    // 127.0.0.1 rather than localhost: localhost may resolve to ::1 first, where nothing listens.
    return `https://127.0.0.1:${this.#httpsPort}`;
  }

  /** {@link httpsUrl} when `secure`, else {@link httpUrl}. */
  url(secure: boolean): string {
    return secure ? this.httpsUrl : this.httpUrl;
  }

  /** Registers an expectation; of all registered ones, the first that matches answers. */
  expect(expectation: Expectation): ExpectationHandle {
    const registered: Registered = { expectation, calls: 0 };
    this.#expectations.push(registered);
    return {
      get calls() {
        return registered.calls;
      },
    };
  }

  /** Forgets all expectations and recorded requests. */
  reset(): void {
    this.#expectations.length = 0;
    this.requests.length = 0;
  }

  /** Ends every connection (even mid-response) and closes both listeners. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const closed = Promise.all([stop(this.#http), stop(this.#https)]);
      this.#http.closeAllConnections();
      for (const socket of this.#sockets) socket.destroy();
      await closed;
    })();
    return this.#closing;
  }

  #receive(req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse | http2.Http2ServerResponse, secure: boolean): void {
    // Matching needs the whole body, so answer only once it has been read.
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => undefined); // the client went away mid-body: nobody to answer
    // Responders are written against node's HTTP/1.1 response; HTTP/2's compatibility response
    // has the same writing methods (writeHead, setHeader, write, end, socket.destroy()).
    const answer = () => void this.#answer(recordRequest(req, Buffer.concat(chunks), secure), res as http.ServerResponse);
    // an HTTP/2 upload the client cut may end its stream all the same, its abort coming a moment
    // later (undici closes, then resets): like a cut HTTP/1.1 upload, it is no request
    req.on('end', () => (req.httpVersionMajor === 2 ? setImmediate(() => void (req.aborted || answer())) : answer()));
  }

  async #answer(req: RecordedRequest, res: http.ServerResponse): Promise<void> {
    const hit = this.#expectations.find(({ expectation }) => sameRoute(expectation, req) && mismatches(expectation, req).length === 0);
    req.matched = hit !== undefined;
    this.requests.push(req);
    if (hit === undefined) {
      const report = unmatchedReport(
        req,
        this.#expectations.map((r) => r.expectation),
      );
      writeResponse(res, plainText(404, report));
      return;
    }
    hit.calls++;
    const { respond } = hit.expectation;
    try {
      if (typeof respond === 'function') await respond(req, res);
      else writeResponse(res, respond);
    } catch (err) {
      // A broken responder should fail the test visibly, not leave the client waiting.
      if (res.headersSent) res.destroy();
      else writeResponse(res, plainText(500, `Responder failed: ${inspect(err)}\n`));
    }
  }
}

/** Listens on 127.0.0.1 with an OS-chosen port; resolves with that port. */
function listen(server: http.Server | http2.Http2SecureServer): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      if (address === null || typeof address === 'string') reject(new Error('TestServer: no TCP address'));
      else resolve(address.port);
    });
  });
}

function stop(server: http.Server | http2.Http2SecureServer): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!server.listening) return resolve();
    server.close((err) => (err ? reject(err) : resolve()));
  });
}

function plainText(status: number, body: string): ResponseSpec {
  return { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body };
}
