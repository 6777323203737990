/**
 * A response undici could not parse: its HTTPParserError carries no code through fetch, and
 * an unexpected 1xx comes as a SocketError 'bad response' (a 101 nobody asked for, 'bad upgrade'). A malformed response, not a
 * connection the server closed: it must not read as a reset (which would send the request again).
 */
export function malformed(inner: { name?: unknown; code?: unknown }, message: string): boolean {
  // ERR_ASSERTION: undici's own check of what it parsed failed (a status below 100, say); in
  // another realm (jest's) it arrives as a plain Error carrying the assertion's text
  return (
    inner.name === 'HTTPParserError' ||
    inner.code === 'ERR_ASSERTION' ||
    message.startsWith('AssertionError') ||
    message === 'bad response' ||
    message === 'bad upgrade'
  );
}

/**
 * undici's error as the pipeline maps it: a response its parser refused becomes
 * `UND_ERR_BAD_RESPONSE` (a malformed answer, never a reset that a retry would send again).
 */
export function undiciError(error: Error): Error {
  const { name, code, message } = error as { name?: unknown; code?: unknown; message: string };
  if (malformed({ name, code }, message)) return Object.assign(new Error(message), { code: 'UND_ERR_BAD_RESPONSE', cause: error });
  if (hadRead(error)) Object.assign(error, { reusedConnection: true });
  return error;
}

/**
 * Whether undici's error is of a connection that had read bytes before (kept alive and reused):
 * its SocketError ('other side closed') carries the socket's counts, a raw socket error the
 * mark of our connector (`withConnector`).
 */
export function hadRead(error: object): boolean {
  const { socket, reusedConnection } = error as { socket?: { bytesRead?: unknown }; reusedConnection?: unknown };
  const read = socket?.bytesRead;
  return reusedConnection === true || (typeof read === 'number' && read > 0);
}
