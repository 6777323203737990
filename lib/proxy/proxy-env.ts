/** One proxy variable that is set: its value (trimmed) and its name, for messages. */
export interface ProxyVariable {
  readonly value: string;
  readonly variable: string;
}

/** What the environment asks for, each with the variable it came from. */
export interface ProxyEnvironment {
  /** `http_proxy`, else `HTTP_PROXY`: the proxy for http targets. */
  readonly http: ProxyVariable | undefined;
  /** `https_proxy`, else `HTTPS_PROXY`: the proxy for https targets. */
  readonly https: ProxyVariable | undefined;
  /** `all_proxy`, else `ALL_PROXY`: the proxy for targets whose scheme's variable is unset (any proxy URL, SOCKS included). */
  readonly all: ProxyVariable | undefined;
  /** `no_proxy`, else `NO_PROXY`: the exempted hosts. */
  readonly noProxy: ProxyVariable | undefined;
}

/**
 * Reads the proxy variables curl reads for http(s), lower case first: `http_proxy`/`HTTP_PROXY`,
 * `https_proxy`/`HTTPS_PROXY`, `all_proxy`/`ALL_PROXY` (used for a scheme whose own variable is
 * unset, as curl does), `no_proxy`/`NO_PROXY`. No parsing: see `parseProxyUrl` and `parseNoProxy`.
 *
 * An empty or blank value counts as unset, so the other case is consulted (`http_proxy=''` with
 * `HTTP_PROXY=http://p:3128` uses the latter). curl would take the empty lower-case one as "no
 * proxy"; falling through is simpler to explain, and to unset a proxy one unsets both or sets
 * `client.proxy = false`.
 *
 * @example
 * readProxyEnvironment({ HTTPS_PROXY: 'http://proxy:3128', no_proxy: 'localhost' });
 * // { http: undefined, https: { value: 'http://proxy:3128', variable: 'HTTPS_PROXY' }, all: undefined, noProxy: { value: 'localhost', variable: 'no_proxy' } }
 */
export function readProxyEnvironment(env: Readonly<Record<string, string | undefined>> = process.env): ProxyEnvironment {
  // httpoxy: under CGI a request's `Proxy:` header arrives as HTTP_PROXY, so there only the
  // lower-case one counts (curl's and Go's rule)
  const cgi = Object.hasOwn(env, 'REQUEST_METHOD');
  // (a request header cannot arrive as ALL_PROXY: CGI names it HTTP_ALL_PROXY)
  return {
    http: read(env, 'http_proxy', !cgi),
    https: read(env, 'https_proxy', true),
    all: read(env, 'all_proxy', true),
    noProxy: read(env, 'no_proxy', true),
  };
}

function read(env: Readonly<Record<string, string | undefined>>, lower: string, upperToo: boolean): ProxyVariable | undefined {
  for (const variable of upperToo ? [lower, lower.toUpperCase()] : [lower]) {
    // own properties only: a plain object's prototype holds no variables
    const value = Object.hasOwn(env, variable) ? env[variable] : undefined;
    if (typeof value === 'string' && value.trim() !== '') return { value: value.trim(), variable };
  }
  return undefined;
}
