import { readFile } from 'node:fs/promises';
import type { Daemon } from './daemon.js';
import { hasTag, newTag } from './access-log.js';
import { probe, sleep } from './http-probe.js';
import { removeSite } from './site.js';

/** How a proxy peer wants its clients to authenticate. */
export type ProxyAuthScheme = 'none' | 'basic' | 'digest';

/** A real forward proxy (squid, tinyproxy) started by the tests on 127.0.0.1. */
export interface ProxyPeer {
  readonly name: 'squid' | 'tinyproxy';
  /** For test titles: `tinyproxy`, `squid open`, `squid basic`, `squid digest`. */
  readonly title: string;
  readonly auth: ProxyAuthScheme;
  /** The name it gives itself in the `Via` header of a forwarded request: the target can tell it carried the request. */
  readonly via: string;
  /**
   * The loopback address it connects to servers from (`tcp_outgoing_address`, tinyproxy's
   * `Bind`), one per flavour: the target's `remoteAddress` tells which proxy carried a request,
   * tunnels included.
   */
  readonly outgoingAddress: string;
  /** The realm of its `Proxy-Authenticate` challenge (auth flavours only). */
  readonly realm: string | undefined;
  readonly port: number;
  /** `http://127.0.0.1:<port>`, without credentials. */
  readonly origin: string;
  /** The folder of configuration, password files and logs (removed by `stop()` unless HB_INTEROP_KEEP=1). */
  readonly root: string;
  readonly configFile: string;
  /** Where the proxy explains itself: squid's `cache.log`, tinyproxy's one log. */
  readonly errorLog: string;
  /** What the proxy saw, request by request. */
  readonly accessLog: ProxyLog;
  /** The process id of the main proxy process. */
  readonly pid: number | undefined;
  /** The proxy URL for a client; with credentials, `http://user:password@127.0.0.1:<port>` (percent-encoded). */
  url(credentials?: { readonly user: string; readonly password: string }): string;
  /** Stops the proxy (SIGTERM, then SIGKILL) and removes its folder. Idempotent. */
  stop(): Promise<void>;
}

/** One request as the proxy logged it. */
export interface ProxyLogEntry {
  readonly method: string;
  /** The request-target as the client sent it: `http://host:port/path?query` when forwarded, `host:port` for `CONNECT`. */
  readonly target: string;
  /** The status the proxy answered; `undefined` for tinyproxy, which logs requests but not their answers. */
  readonly status: number | undefined;
  /** The user the proxy authenticated (squid also names the user of a rejected try), or `undefined`. */
  readonly user: string | undefined;
  readonly line: string;
}

/** Reads one line of a proxy's log: an entry, or `undefined` for lines about something else. */
export type ProxyLogParser = (line: string) => ProxyLogEntry | undefined;

/** The path of the marker request {@link ProxyLog.settle} sends straight to the proxy (not through it). */
export const PROXY_MARKER = '/hb-mark';

export interface ProxyEntriesOptions {
  /** Only lines after this position (from {@link ProxyLog.checkpoint}). */
  readonly since?: number;
  /** Keep waiting (up to `timeoutMs`) until at least this many matching lines are there. */
  readonly atLeast?: number;
  readonly timeoutMs?: number;
}

/** How long the matching lines must stay unchanged before {@link ProxyLog.entries} trusts them. */
const QUIET_MS = 60;

/**
 * A proxy's request log. Tests find their lines by a tag (`?t=<tag>` on an http target, see
 * `newTag`), or by `CONNECT host:port` after a {@link ProxyLog.checkpoint}. squid writes a line
 * once a transaction ends: for a `CONNECT` that is when the tunnel closes, so close the client
 * before looking for its tunnels. tinyproxy writes a line when a request arrives.
 */
export class ProxyLog {
  constructor(
    /** The log file, for a look when a test fails. */
    readonly path: string,
    /** `http://127.0.0.1:<port>` of the proxy: the marker request goes there. */
    private readonly origin: string,
    private readonly parse: ProxyLogParser,
  ) {}

  /** Every request line written so far (the marker requests left out). */
  async read(since = 0): Promise<ProxyLogEntry[]> {
    return (await this.#lines())
      .slice(since)
      .map((line) => this.parse(line))
      .filter((entry): entry is ProxyLogEntry => entry !== undefined && !entry.target.startsWith(PROXY_MARKER));
  }

  /** The position of the end of the log, once it has caught up: pass it as `since` to see only what came later. */
  async checkpoint(): Promise<number> {
    await this.settle();
    return (await this.#lines()).length;
  }

  /** The entries that `match`, in order, once the log has caught up: at least `atLeast` and unchanged for a moment (or the timeout passed). */
  async entries(match: (entry: ProxyLogEntry) => boolean, { since = 0, atLeast = 0, timeoutMs = 10_000 }: ProxyEntriesOptions = {}): Promise<ProxyLogEntry[]> {
    const deadline = Date.now() + timeoutMs;
    await this.settle(timeoutMs);
    let previous = -1;
    for (;;) {
      const found = (await this.read(since)).filter(match);
      if ((found.length === previous && found.length >= atLeast) || Date.now() > deadline) return found;
      previous = found.length;
      await sleep(QUIET_MS);
    }
  }

  /** The forwarded requests whose URL carries `?t=<tag>`. */
  tagged(tag: string, options?: ProxyEntriesOptions): Promise<ProxyLogEntry[]> {
    return this.entries((entry) => entry.method !== 'CONNECT' && hasTag(entry.target, tag), options);
  }

  /** The `CONNECT` requests for `authority` (`127.0.0.1:<port>`). */
  connects(authority: string, options?: ProxyEntriesOptions): Promise<ProxyLogEntry[]> {
    return this.entries((entry) => entry.method === 'CONNECT' && entry.target === authority, options);
  }

  /**
   * Sends a marker request straight to the proxy (a path, not an absolute URL: both proxies
   * answer 400 at once, reaching no server) and polls until its line is in the log, so that
   * every request answered before is logged too.
   */
  async settle(timeoutMs = 10_000): Promise<void> {
    const mark = newTag();
    const status = await probe(`${this.origin}${PROXY_MARKER}?mark=${mark}`);
    if (status !== 400) throw new Error(`the proxy answered the marker request with ${status} instead of 400`);
    const deadline = Date.now() + timeoutMs;
    while (!(await this.#text()).includes(`mark=${mark} `)) {
      if (Date.now() > deadline) throw new Error(`the marker request is not in ${this.path} after ${timeoutMs} ms`);
      await sleep(20);
    }
  }

  async #lines(): Promise<string[]> {
    return (await this.#text()).split('\n').filter((line) => line !== '');
  }

  async #text(): Promise<string> {
    return readFile(this.path, 'utf8').catch((error: unknown) => {
      if ((error as { code?: unknown }).code === 'ENOENT') return '';
      throw error;
    });
  }
}

/** The {@link ProxyPeer} of a started daemon. */
export function proxyPeer(
  daemon: Daemon,
  site: Pick<ProxyPeer, 'name' | 'title' | 'via' | 'outgoingAddress' | 'auth' | 'realm' | 'port' | 'root' | 'configFile' | 'errorLog'>,
  accessLog: { readonly path: string; readonly parse: ProxyLogParser },
): ProxyPeer {
  const origin = `http://127.0.0.1:${site.port}`;
  return {
    ...site,
    origin,
    accessLog: new ProxyLog(accessLog.path, origin, accessLog.parse),
    pid: daemon.pid,
    url: (credentials) =>
      credentials === undefined ? origin : `http://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@127.0.0.1:${site.port}`,
    async stop() {
      await daemon.stop();
      await removeSite(site.root);
    },
  };
}
