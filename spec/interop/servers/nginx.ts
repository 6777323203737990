import { createHash } from 'node:crypto';
import { access, chmod, constants, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { selfSignedCertificate } from '../../support/tls-certificate.js';
import { AccessLog, taggedOnceQuiet, type EntriesOptions } from './access-log.js';
import { Daemon, onFreePort } from './daemon.js';
import { freePort } from './free-port.js';
import { MARKER, urlOf } from './peer.js';
import { fillTemplate, makeSite, removeSite, writeSiteFile } from './site.js';

export const NGINX = '/usr/sbin/nginx';

/** The JSON document nginx serves as `/data.json` (`application/json`, not gzip'd). */
export const NGINX_JSON = { server: 'nginx', http2: true, list: [1, 'zwei', null], text: 'über' } as const;

/** The text nginx serves as `/text.txt` (`text/plain; charset=utf-8`, gzip'd when the client accepts it): about 5 KB. */
export const NGINX_TEXT = Array.from(
  { length: 64 },
  (_, index) => `line ${String(index + 1).padStart(2, '0')}: the quick brown fox jumps over the lazy dog, über\n`,
).join('');

/** The size of `/big.bin` (`application/octet-stream`, never gzip'd): 2 MiB of pseudo-random bytes. */
export const NGINX_BIG_SIZE = 2 * 1024 * 1024;

/** How many values `/changes.ndjson` holds: `{"seq":N,"note":"..."}` for N = 1 to this (about 1.4 MB, gzip'd when the client accepts it). */
export const NGINX_NDJSON_COUNT = 20_000;

/** The value on line `seq` of `/changes.ndjson`. */
export function nginxChange(seq: number): { seq: number; note: string } {
  return { seq, note: `change ${seq}: über ${'·'.repeat(seq % 17)}` };
}

/** What `/feed.sse` holds (`text/event-stream`): three events, one with two data lines, an id and a retry. */
export const NGINX_FEED = ': feed\nevent: created\nid: 1\ndata: {"n":1}\n\nevent: updated\nid: 2\nretry: 2500\ndata: line one\ndata: line two\n\ndata: bye\n\n';

/** The pages of `/pages/N.json`: arrays of numbers, each page linking the next one (`Link: <...>; rel="next"`) but the last. */
export const NGINX_PAGES = [[1, 2, 3], [4, 5, 6], [7]] as const;

/** What nginx serves, by path (see nginx.conf.in). */
export const NGINX_PATHS = {
  json: '/data.json',
  text: '/text.txt',
  big: '/big.bin',
  ndjson: '/changes.ndjson',
  feed: '/feed.sse',
  /** the first of {@link NGINX_PAGES} */
  pages: '/pages/1.json',
  /** {@link NGINX_JSON} again, with `Cache-Control: max-age=3600` (`expires 1h`) */
  cacheable: '/static/rates.json',
  /** `METHOD /echo?query` as text/plain, any method. */
  echo: '/echo',
  /** POST/PUT: `METHOD <bytes of the body>` once nginx has read the whole body (up to 10 MB). */
  upload: '/upload',
  /** 302 to /data.json, with the query. */
  redirect: '/redirect',
  marker: MARKER,
} as const;

/** One request as nginx logged it (the `hb` log_format of nginx.conf.in). */
export interface NginxLogEntry {
  /** nginx's serial number of the connection (`$connection`): requests with the same one shared a connection. */
  readonly connection: number;
  /** The local port: {@link NginxPeer.httpsPort} or {@link NginxPeer.httpPort}. */
  readonly port: number;
  readonly status: number;
  /** `HTTP/2.0`, `HTTP/1.1` or `HTTP/1.0` (`$server_protocol`). */
  readonly protocol: string;
  /** `TLSv1.3`, ...; `undefined` on the plain listener. */
  readonly tls: string | undefined;
  /** The protocol agreed by ALPN (`h2`, `http/1.1`); `undefined` without TLS or without ALPN. */
  readonly alpn: string | undefined;
  /** The `Content-Encoding` nginx answered with (`gzip`), or `undefined`. */
  readonly contentEncoding: string | undefined;
  /** Bytes of the response body sent (compressed size when gzip'd). */
  readonly bodyBytes: number;
  readonly method: string;
  /** The request-target: path and query. */
  readonly target: string;
  readonly line: string;
}

// 3 443 200 HTTP/2.0 TLSv1.3 h2 gzip 1234 "GET /text.txt?t=ab HTTP/2.0"
const LINE = /^(\d+) (\d+) (\d{3}) (\S+) (\S+) (\S+) (\S+) (\d+) "(\S+) (\S+)[^"]*"$/;

function dash(value: string | undefined): string | undefined {
  return value === undefined || value === '-' ? undefined : value;
}

export function parseNginxLine(line: string): NginxLogEntry | undefined {
  const match = LINE.exec(line);
  if (match === null) return undefined;
  const [, connection, port, status, protocol = '', tls, alpn, encoding, bytes, method = '', target = ''] = match;
  return {
    connection: Number(connection),
    port: Number(port),
    status: Number(status),
    protocol,
    tls: dash(tls),
    alpn: dash(alpn),
    contentEncoding: dash(encoding),
    bodyBytes: Number(bytes),
    method,
    target,
    line,
  };
}

/**
 * nginx's access log. Requests of a test carry `?t=<tag>` (`newTag()`); nginx writes a line
 * as soon as it has answered (one worker: in the order of the answers), so once the line of a
 * marker request sent afterwards is there, so are theirs.
 */
export class NginxLog {
  readonly #marker: AccessLog;

  constructor(
    /** The log file, for a look when a test fails. */
    readonly path: string,
    /** `http://127.0.0.1:<httpPort>/marker.txt`: the marker request goes to the plain listener. */
    markerUrl: string,
  ) {
    this.#marker = new AccessLog(path, markerUrl);
  }

  /** Every request line written so far (marker requests included; a line of another format as method `?`). */
  async read(): Promise<NginxLogEntry[]> {
    const text = await readFile(this.path, 'utf8').catch((error: unknown) => {
      if ((error as { code?: unknown }).code === 'ENOENT') return '';
      throw error;
    });
    return text
      .split('\n')
      .filter((line) => line !== '')
      .map(
        (line) =>
          parseNginxLine(line) ?? {
            connection: 0,
            port: 0,
            status: 0,
            protocol: '?',
            tls: undefined,
            alpn: undefined,
            contentEncoding: undefined,
            bodyBytes: 0,
            method: '?',
            target: '?',
            line,
          },
      );
  }

  /** The entries of requests tagged `tag`, in order, once the log has caught up: at least `atLeast` and unchanged for a moment (or the timeout passed). */
  entries(tag: string, options?: EntriesOptions): Promise<NginxLogEntry[]> {
    return taggedOnceQuiet(this, tag, options);
  }

  /** How many connections the requests tagged `tag` came on (waits for the log as {@link NginxLog.entries} does). */
  async connections(tag: string, options?: EntriesOptions): Promise<number> {
    return new Set((await this.entries(tag, options)).map((entry) => entry.connection)).size;
  }

  /** Sends a marker request (plain HTTP/1.1, a connection of its own) and polls until its line is in the log. */
  settle(timeoutMs = 10_000): Promise<void> {
    return this.#marker.settle(timeoutMs);
  }
}

/** nginx on 127.0.0.1 started by the tests: HTTP/2 over TLS on one port, plain HTTP/1.1 on another, one static site. */
export interface NginxPeer {
  readonly name: 'nginx';
  /** The TLS listener: ALPN `h2` and `http/1.1`. */
  readonly httpsPort: number;
  /** The plain listener: HTTP/1.1 only. */
  readonly httpPort: number;
  /** `https://127.0.0.1:<httpsPort>` */
  readonly httpsUrl: string;
  /** `http://127.0.0.1:<httpPort>` */
  readonly httpUrl: string;
  /** The server's self-signed certificate (PEM, for 127.0.0.1 and localhost): pass it as `ca` to trust the server. */
  readonly ca: string;
  /** The same certificate as a file (`curl --cacert`). */
  readonly caFile: string;
  /** The folder of configuration, site, certificate and logs (removed by `stop()` unless HB_INTEROP_KEEP=1). */
  readonly root: string;
  readonly configFile: string;
  readonly errorLog: string;
  /** What nginx answered, request by request. */
  readonly accessLog: NginxLog;
  /** SHA-256 (hex) of `/big.bin`. */
  readonly bigSha256: string;
  /** The process id of the master process. */
  readonly pid: number | undefined;
  /** An absolute URL of the TLS listener (or the plain one); with a tag, `?t=<tag>` is appended. */
  url(path: string, tag?: string, scheme?: 'https' | 'http'): string;
  /** Stops nginx (SIGTERM: fast shutdown, then SIGKILL) and removes its folder. Idempotent. */
  stop(): Promise<void>;
}

/** 2 MiB from a xorshift generator: the same bytes every run, and nothing gzip could shrink. */
function bigBytes(): Buffer {
  const bytes = Buffer.alloc(NGINX_BIG_SIZE);
  let state = 0x2545f491;
  for (let offset = 0; offset < bytes.length; offset += 4) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes.writeInt32LE(state | 0, offset);
  }
  return bytes;
}

/**
 * Starts nginx (Debian `nginx`, 1.22) from `nginx.conf.in` in a fresh folder, in the foreground
 * (`daemon off;`) with one worker: `https://127.0.0.1:<port>` (HTTP/2 and HTTP/1.1 by ALPN, a
 * self-signed certificate for 127.0.0.1 and localhost) and `http://127.0.0.1:<port>` (HTTP/1.1),
 * both serving {@link NGINX_PATHS}.
 */
export async function startNginx(): Promise<NginxPeer> {
  await access(NGINX, constants.X_OK).catch(() => {
    throw new Error(`${NGINX} is missing: apt-get install -y --no-install-recommends nginx`);
  });
  const root = await makeSite('nginx');
  try {
    const { key, cert } = await selfSignedCertificate();
    // read by the master process (root, or the user that started it) before it starts the worker
    await mkdir(join(root, 'tls'), { mode: 0o700 });
    await writeFile(join(root, 'tls', 'key.pem'), key, { mode: 0o600 });
    const caFile = join(root, 'tls', 'cert.pem');
    await writeFile(caFile, cert, { mode: 0o644 });
    // nginx creates its temp folders below this one, for the worker's user
    await mkdir(join(root, 'tmp'), { mode: 0o755 });
    await writeSiteFile(root, `htdocs${NGINX_PATHS.json}`, `${JSON.stringify(NGINX_JSON)}\n`);
    await writeSiteFile(root, `htdocs${NGINX_PATHS.text}`, NGINX_TEXT);
    const changes = Array.from({ length: NGINX_NDJSON_COUNT }, (_, index) => `${JSON.stringify(nginxChange(index + 1))}\n`).join('');
    await writeSiteFile(root, `htdocs${NGINX_PATHS.ndjson}`, changes);
    await writeSiteFile(root, `htdocs${NGINX_PATHS.feed}`, NGINX_FEED);
    await mkdir(join(root, 'htdocs', 'pages'), { mode: 0o755 });
    await mkdir(join(root, 'htdocs', 'static'), { mode: 0o755 });
    await writeSiteFile(root, `htdocs${NGINX_PATHS.cacheable}`, `${JSON.stringify(NGINX_JSON)}\n`);
    for (const [index, page] of NGINX_PAGES.entries()) await writeSiteFile(root, `htdocs/pages/${index + 1}.json`, JSON.stringify(page));
    const big = bigBytes();
    await writeFile(join(root, `htdocs${NGINX_PATHS.big}`), big);
    await chmod(join(root, `htdocs${NGINX_PATHS.big}`), 0o644);
    const bigSha256 = createHash('sha256').update(big).digest('hex');
    const configFile = join(root, 'nginx.conf');
    const errorLog = join(root, 'logs', 'error.log');
    // started as root, the worker serves as nobody; otherwise nginx ignores `user` with a warning: leave it out
    const user = process.getuid?.() === 0 ? 'user nobody nogroup;' : '# not root: the worker stays the user that started nginx';
    return await onFreePort(freePort, async (httpsPort) => {
      let httpPort = await freePort();
      while (httpPort === httpsPort) httpPort = await freePort();
      await writeFile(configFile, await fillTemplate('nginx.conf.in', { ROOT: root, HTTPSPORT: httpsPort, HTTPPORT: httpPort, USER: user }));
      const httpsUrl = `https://127.0.0.1:${httpsPort}`;
      const httpUrl = `http://127.0.0.1:${httpPort}`;
      const daemon = await Daemon.start({
        name: 'nginx',
        command: NGINX,
        // -p: relative paths (none in the config) and the prefix; -c: the config; daemon off is in it
        args: ['-p', `${root}/`, '-c', configFile],
        // both listeners are bound before the worker serves either
        readyUrl: `${httpUrl}${MARKER}`,
        logFiles: [errorLog],
      });
      return {
        name: 'nginx',
        httpsPort,
        httpPort,
        httpsUrl,
        httpUrl,
        ca: cert,
        caFile,
        root,
        configFile,
        errorLog,
        accessLog: new NginxLog(join(root, 'logs', 'access.log'), `${httpUrl}${MARKER}`),
        bigSha256,
        pid: daemon.pid,
        url: (path, tag, scheme = 'https') => urlOf(scheme === 'https' ? httpsUrl : httpUrl, path, tag),
        async stop() {
          await daemon.stop();
          await removeSite(root);
        },
      };
    });
  } catch (error) {
    await removeSite(root);
    throw error;
  }
}
