/** Secrets kept out of messages and log lines: user info and credential-like query values. */

/**
 * A host, path or target for a message, with anything that may be user info hidden: from the
 * start (or after a leading `scheme://` or `//`) to the last `@` (`admin:pw@host` → `***@host`,
 * `//u:p/w@evil/x` → `//***@evil/x`). A path's own `@` is hidden with it: better too much than a secret.
 */
export function hideUserInfoIn(text: string): string {
  const at = text.lastIndexOf('@');
  if (at < 0) return text;
  const start = /^(?:[a-z][a-z0-9+.-]*:)?\/\//i.exec(text)?.[0].length ?? 0;
  return `${text.slice(0, start)}***${text.slice(at)}`;
}

/** Query parameter names whose values are secrets often enough to never print them. */
const SECRET_NAME = /token|key|secret|pass|pwd|auth|sig|session|cookie|credential|code|jwt|ticket|bearer/i;

/**
 * The URL for a log line: user info replaced by `***`, and the values of query parameters (split
 * on `&` and `;`) and path parameters (`/app;jsessionid=...`) whose names look like credentials
 * (`token`, `api_key`, `password`, `sig`, `jwt`, `ticket`, ...) replaced by `***`.
 *
 * @example
 * redactUrl('https://ada:pw@api.example.com/x?api_key=s3cret&page=2'); // 'https://***@api.example.com/x?api_key=***&page=2'
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(unparsable URL)';
  }
  const userInfo = parsed.username !== '' || parsed.password !== '';
  parsed.username = '';
  parsed.password = '';
  let text = parsed.href;
  if (userInfo) text = text.replace('//', '//***@');
  const pathStart = text.indexOf('/', text.indexOf('//') + 2);
  const hash = text.indexOf('#');
  const end = hash < 0 ? text.length : hash;
  const query = text.indexOf('?');
  const pathEnd = query < 0 || query > end ? end : query;
  const hide = (name: string, value: string, all: string) => (SECRET_NAME.test(decodeName(name)) ? `${all.slice(0, all.length - value.length)}***` : all);
  const path = text.slice(pathStart, pathEnd).replace(/;([^=;/]+)=([^;/]*)/g, (all: string, name: string, value: string) => hide(name, value, all));
  const search = text
    .slice(pathEnd, end)
    .replace(/([?&;])([^=&;]+)=([^&;]*)/g, (all: string, _at: string, name: string, value: string) => hide(name, value, all));
  return `${text.slice(0, pathStart)}${path}${search}${text.slice(end)}`;
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/**
 * A URL for an error message: as for a log line ({@link redactUrl}: user info and credential-like
 * query values hidden), or with its user info hidden when it does not parse.
 */
export function urlForMessage(url: string): string {
  return URL.canParse(url) ? redactUrl(url) : redactUserInfo(url);
}

/**
 * A URL for a message, with anything that may be user info hidden: everything up to the last
 * `@` before the path (`https://user:p@ss@host/x` → `https://***@host/x`), however malformed.
 * A URL that does not parse may have a `/`, `?` or `#` in its password, so there the user
 * info runs to the last `@` of all (a path's `@` is hidden with it: better too much than a secret).
 */
export function redactUserInfo(url: string): string {
  const text = url.trim();
  const at = text.lastIndexOf('@', URL.canParse(text) ? pathStart(text) : text.length);
  if (at < 0) return text;
  const scheme = /^[a-z][a-z0-9+.-]*:\/*/i.exec(text)?.[0] ?? '';
  return `${scheme}***${text.slice(at)}`;
}

/** Where the path would start: the first `/`, `?` or `#` after the scheme's slashes. */
function pathStart(text: string): number {
  const afterScheme = /^[a-z][a-z0-9+.-]*:\/*/i.exec(text)?.[0].length ?? 0;
  const rest = text.slice(afterScheme).search(/[/?#]/);
  return rest < 0 ? text.length : afterScheme + rest;
}
