// No `node:` import: the fetch backend, which runs in browsers and Workers too, keys its origins by these.

/** The undici-limits.ts `Versions` key of a request's origin (`hostname` as in a WireRequest: an IPv6 address in brackets, any case). */
export function originKey(secure: boolean, hostname: string, port: number): string {
  return keyOf(secure ? 'https:' : 'http:', hostname, String(port));
}

/** `protocol//host:port`, the port filled in for the scheme. */
export function keyOf(protocol: string, hostname: string, port: string): string {
  return `${protocol}//${hostname.toLowerCase()}:${port || (protocol === 'https:' ? '443' : '80')}`;
}
