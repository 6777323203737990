/**
 * node's own HTTP/2 server (nghttp2) on 127.0.0.1, for scenarios that answer each stream by
 * hand (`stream.close(code)`, `session.goaway(...)`): the kit's test server answers in HTTP/2
 * through the compatibility API, which hides the streams.
 *
 * @module
 */
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';

export interface NodeH2Server {
  /** `https://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Ends every session still open, then stops listening. */
  close(): Promise<void>;
}

/**
 * Listens with `options` (the certificate, `allowHTTP1`, ...) and hands each stream to `onStream`;
 * a session's errors are ignored (the client's side is what the tests read).
 *
 * @example
 * const server = await nodeH2Server(certificate, (stream) => stream.close(http2.constants.NGHTTP2_REFUSED_STREAM));
 */
export async function nodeH2Server(
  options: http2.SecureServerOptions,
  onStream: (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => void,
): Promise<NodeH2Server> {
  const server = http2.createSecureServer(options);
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('stream', onStream);
  server.on('session', (session) => {
    sessions.add(session);
    session.on('error', () => {});
    session.once('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const session of sessions) session.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
