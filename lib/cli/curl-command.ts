import { basename } from 'node:path';
import type { CliRequest } from './args.js';
import type { SentRequest } from './exchange-capture.js';
import { fileContentType } from './request.js';

// the methods node sends without Content-Length when they have no body
const NO_BODY_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE']);
// headers the transport writes itself (curl does too): not repeated on the command line
const TRANSPORT_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding']);

/**
 * The curl command that sends the request hb would send (`--curl`): the method, the URL, every
 * header hb hands the transport (curl's own `Accept` and `User-Agent` removed when hb sends
 * none), the body (`--data-binary`, or `--form-string`/`-F` parts for a multipart form, so
 * curl chooses the boundary), `-L` unless `--no-follow`, and the TLS, proxy, connection and
 * time flags that have a curl spelling. Each word is quoted for a POSIX shell.
 *
 * @example
 * curlCommand(request, sent);
 * // "curl -L -X PUT 'http://localhost:8080/users/1' -H 'Content-Type: application/json' --data-binary '{\"name\":\"Ada\"}'"
 */
export function curlCommand(request: CliRequest, sent: SentRequest): string {
  const { wire } = sent;
  const words = request.transport.follow ? ['curl', '-L'] : ['curl'];
  const multipart = request.files.length > 0 && request.data === undefined && request.json === undefined;
  const hasBody = sent.body !== undefined && sent.body.length > 0;
  if (wire.method === 'HEAD') words.push('-I');
  else if (wire.method !== (hasBody ? 'POST' : 'GET')) words.push('-X', wire.method);
  if (/[[\]{}]/.test(wire.url)) words.push('--globoff');
  words.push(wire.url);

  const names = Object.keys(wire.headers).map((name) => name.toLowerCase());
  for (const [name, value] of Object.entries(wire.headers)) {
    const lower = name.toLowerCase();
    if (TRANSPORT_HEADERS.has(lower) || (multipart && lower === 'content-type')) continue;
    // curl's `-H 'Name;'` sends an empty header; `-H 'Name:'` would remove it
    words.push('-H', value === '' ? `${name};` : `${name}: ${value}`);
    if (lower === 'accept-encoding') words.push('--compressed');
  }
  for (const own of ['Accept', 'User-Agent']) if (!names.includes(own.toLowerCase())) words.push('-H', `${own}:`);
  if (!hasBody && !multipart && (sent.body !== undefined || !NO_BODY_METHODS.has(wire.method))) {
    // hb frames an empty body (Content-Length: 0, as node does for any method but these) where curl sends no length
    words.push('-H', 'Content-Length: 0');
  }
  if (multipart) {
    for (const [name, value] of request.form) words.push('--form-string', `${name}=${value}`);
    // quoted, '"' and '\' escaped: curl reads an unquoted value up to the next ';' or ','
    const quoted = (text: string) => `"${text.replace(/["\\]/g, '\\$&')}"`;
    for (const { name, path } of request.files) words.push('-F', `${name}=@${quoted(path)};filename=${quoted(basename(path))};type=${fileContentType(path)}`);
  } else if (hasBody || request.data !== undefined || request.json !== undefined) {
    const source = request.data ?? request.json;
    if (source?.from === 'file') words.push('--data-binary', `@${source.path}`);
    else if (source?.from === 'stdin') words.push('--data-binary', '@-');
    else words.push('--data-binary', Buffer.from(sent.body ?? new Uint8Array()).toString('utf8'));
  }
  words.push(...transportFlags(request));
  return words.map(quote).join(' ');
}

/** The flags of `request` that curl spells too. */
function transportFlags(request: CliRequest): string[] {
  const flags: string[] = [];
  if (request.insecure) flags.push('-k');
  const { tls } = request;
  if (tls.cacert !== undefined) flags.push('--cacert', tls.cacert);
  // curl reads a ':' in --cert as the start of the password: escape it
  if (tls.cert !== undefined) flags.push('--cert', tls.cert.replace(/[\\:]/g, '\\$&'));
  if (tls.certType !== undefined) flags.push('--cert-type', tls.certType);
  if (tls.key !== undefined) flags.push('--key', tls.key);
  if (tls.passphrase !== undefined) flags.push('--pass', tls.passphrase);
  if (tls.pins !== undefined) flags.push('--pinnedpubkey', tls.pins.from === 'file' ? tls.pins.path : tls.pins.digests.map((d) => `sha256//${d}`).join(';'));
  if (request.http2) flags.push('--http2');
  const { transport } = request;
  if (transport.unixSocket !== undefined) flags.push('--unix-socket', transport.unixSocket);
  for (const { host, port, addresses } of transport.resolve)
    flags.push('--resolve', `${host}:${port}:${addresses.map((a) => (a.includes(':') ? `[${a}]` : a)).join(',')}`);
  if (transport.family !== undefined) flags.push(`-${transport.family}`);
  if (transport.maxRedirs !== undefined) flags.push('--max-redirs', String(transport.maxRedirs));
  if (transport.connectTimeout !== undefined) flags.push('--connect-timeout', String(transport.connectTimeout / 1000));
  if (request.proxy !== undefined) flags.push('--proxy', request.proxy);
  if (request.noProxy !== undefined) flags.push('--noproxy', request.noProxy.join(','));
  if (request.timeout !== undefined) flags.push('--max-time', String(request.timeout / 1000));
  if (request.output !== undefined) flags.push('-o', request.output);
  if (request.auth?.scheme === 'digest') flags.push('--digest', '-u', `${request.auth.user}:${request.auth.password}`);
  return flags;
}

/** One shell word: bare when it is made of safe characters, else in single quotes. */
function quote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
