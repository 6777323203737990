import { join } from 'node:path';
import { AccessLog } from './access-log.js';
import type { Daemon } from './daemon.js';
import { removeSite, type DigestAlgorithm } from './site.js';

/** A protected path of a peer server, and what it asks for. */
export interface AuthArea {
  /** `apache basic`, `apache digest MD5`, `lighttpd digest SHA-256`, ... */
  readonly title: string;
  readonly scheme: 'basic' | 'digest';
  /** The Digest algorithm the server offers (Digest only). */
  readonly algorithm?: DigestAlgorithm;
  readonly realm: string;
  /** The echo CGI under the protection: `/digest/echo`. */
  readonly path: string;
}

/** A real HTTP server (Apache httpd, lighttpd) started by the tests on 127.0.0.1. */
export interface PeerServer {
  readonly name: 'apache' | 'lighttpd';
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** The site folder: configuration, password files, logs (removed by `stop()` unless HB_INTEROP_KEEP=1). */
  readonly root: string;
  readonly configFile: string;
  readonly errorLog: string;
  /** The access log (`accessLog.path`), with helpers that wait for it to be written. */
  readonly accessLog: AccessLog;
  readonly areas: readonly AuthArea[];
  /** The process id of the main server process. */
  readonly pid: number | undefined;
  /** An absolute URL of this server; with a tag, `?t=<tag>` is appended (see AccessLog). */
  url(path: string, tag?: string): string;
  /** Stops the server (SIGTERM, then SIGKILL) and removes its folder. Idempotent. */
  stop(): Promise<void>;
}

/** The unprotected echo CGI (answers every method with 200). */
export const PUBLIC_ECHO = '/public/echo';
/** The static file each server serves without auth: readiness probe and access-log marker. */
export const MARKER = '/marker.txt';

export function urlOf(origin: string, path: string, tag?: string): string {
  return tag === undefined ? `${origin}${path}` : `${origin}${path}${path.includes('?') ? '&' : '?'}t=${tag}`;
}

/** The {@link PeerServer} of a started daemon. */
export function peerServer(daemon: Daemon, site: Pick<PeerServer, 'name' | 'origin' | 'root' | 'configFile' | 'errorLog' | 'areas'>): PeerServer {
  return {
    ...site,
    accessLog: new AccessLog(join(site.root, 'logs', 'access.log'), `${site.origin}${MARKER}`),
    pid: daemon.pid,
    url: (path, tag) => urlOf(site.origin, path, tag),
    async stop() {
      await daemon.stop();
      await removeSite(site.root);
    },
  };
}
