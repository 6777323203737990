// usePeer (jest hooks) lives in ./use-peer.js so that the rest also works outside jest.
// The interop harness: real Apache httpd and lighttpd servers for the auth tests, real squid
// and tinyproxy forward proxies for the proxy tests, nginx (HTTP/2 over TLS) for the HTTP/2 tests.
export { startApache, APACHE, APACHE_AREAS } from './apache.js';
export { startLighttpd, LIGHTTPD, LIGHTTPD_AREAS } from './lighttpd.js';
export { startSquid, SQUID, SQUID_REALMS } from './squid.js';
export { startTinyproxy, TINYPROXY } from './tinyproxy.js';
export {
  startNginx,
  parseNginxLine,
  NginxLog,
  NGINX,
  NGINX_BIG_SIZE,
  NGINX_FEED,
  NGINX_JSON,
  NGINX_NDJSON_COUNT,
  NGINX_PAGES,
  nginxChange,
  NGINX_PATHS,
  NGINX_TEXT,
  type NginxLogEntry,
  type NginxPeer,
} from './nginx.js';
export { AccessLog, newTag, hasTag, parseLogLine, type LogEntry } from './access-log.js';
export { ProxyLog, PROXY_MARKER, type ProxyAuthScheme, type ProxyLogEntry, type ProxyPeer } from './proxy-peer.js';
export { MARKER, PUBLIC_ECHO, type AuthArea, type PeerServer } from './peer.js';
export { PASSWORD, USER, type DigestAlgorithm } from './site.js';
export { probe } from './http-probe.js';
export { startMicrosocks, MICROSOCKS, type SocksPeer } from './microsocks.js';
