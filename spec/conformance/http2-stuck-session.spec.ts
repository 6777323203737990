// A native HTTP/2 session that let a stream time out is retired: a malformed frame can wedge
// nghttp2 so that the session stays open but answers nothing, and every later call to the
// origin would wait out its timeout on it. (got, undici and fetch keep such a session: their
// sessions are their libraries' own.)
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { backendClients } from '../support/backend-clients.js';
import { dataFrame, frame, headersFrame, rawH2Server, type RawH2Server } from '../support/raw-h2-server.js';
import { selfSignedCertificate, type TlsCertificate } from '../support/tls-certificate.js';

const ALTSVC = 0xa;
let certificate: TlsCertificate;
let server: RawH2Server;
let answered = 0;

beforeAll(async () => {
  certificate = await selfSignedCertificate();
  server = await rawH2Server(certificate, (socket, stream) => {
    // the first request: an ALTSVC frame on its stream with no origin-length field, before the answer
    if (answered++ === 0) socket.write(frame(ALTSVC, 0, stream, Buffer.from('h2=":1"')));
    socket.write(Buffer.concat([headersFrame(stream, [[':status', '200']]), dataFrame(stream, 'ok', true)]));
  });
});
afterAll(() => server.close());

describe('native over h2: a session that let a stream time out', () => {
  const client = backendClients('native');

  it('is retired: the next call to the origin goes on a new connection and is answered', async () => {
    const http = client(`${server.url}/text`, (c) => {
      c.client.http2 = true;
      c.execution.tls = { ca: certificate.cert };
      c.execution.timeout = { response: 500 };
    });
    await expect(http.get(String)).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(await http.get(String)).toBe('ok');
    expect(await http.get(String)).toBe('ok');
  });
});
