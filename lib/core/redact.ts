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

/**
 * Words that make a name a credential wherever they stand in it, also as the end of a run-together
 * word: `refresh_token`, `id_token_hint`, `clientSecret`, `password_confirmation`, `JSESSIONID`,
 * `PHPSESSID`, `session_id` (its last two words joined). A word that ends so counts (`accesstoken`,
 * `newpassword`): no everyday word does; a word that only contains one (`tokenizer`) does not.
 */
const SECRET_WORD = /(?:token|secret|password|passwd|passphrase|credential|apikey|sessionid|sessid|jwt)s?$/;

/**
 * Last words that make a name a credential: `api_key`, `X-Amz-Signature`, `connect.sid`, `pwd`.
 * Only last: `signature_date`, `session_count` and `auth_type` name something about a credential.
 */
const SECRET_LAST = setOf(
  'key sig signature auth authorization pass pwd pw pin passcode session sid bearer ticket cookie cookies cred creds otp totp hmac verifier assertion',
);

/**
 * The last two words joined (the whole name when it is one word) that make a name a credential:
 * a bare `code` is OAuth's authorization code, and `auth_code` or `device_code` are codes too, but
 * `country_code` is not; run-together keys (`accesskey`, `privatekey`) end in `key` as `monkey` and
 * `turkey` do, so they are listed; `AWSAccessKeyId` and `key_id` end in `key_id`.
 */
const SECRET_TAIL = setOf(
  [
    'code keyid samlresponse samlart',
    ...'auth authorization device otp mfa verification reset access security activation confirmation recovery backup login'.split(' ').map((w) => `${w}code`),
    ...'access secret private auth pass session signing master app client subscription'.split(' ').map((w) => `${w}key`),
  ].join(' '),
);

/** A set of the space-separated words of `list`. */
function setOf(list: string): ReadonlySet<string> {
  return new Set(list.split(' '));
}

/**
 * Whether a parameter's value is a credential, by its name's words (split on anything but letters
 * and digits and at camelCase humps, trailing digits dropped): a credential word anywhere, or a
 * credential-like last word or last two words. Not by substring: `author`, `country_code`, `monkey`,
 * `passenger` and `keyboard` are no secrets.
 *
 * @example
 * isSecretName('X-Amz-Signature'); // true
 * isSecretName('country_code'); // false
 */
export function isSecretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2') // accessToken → access Token
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2') // APIKey → API Key
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .map((word) => word.replace(/\d+$/, '')) // password2 is a password
    .filter((word) => word !== '');
  if (words.length === 0) return false;
  const tail = words.slice(-2).join('');
  return SECRET_LAST.has(words[words.length - 1]) || SECRET_TAIL.has(tail) || SECRET_WORD.test(tail) || words.some((word) => SECRET_WORD.test(word));
}

/**
 * The URL for a log line: user info replaced by `***`, and the values of query parameters (split
 * on `&` and `;`) and path parameters (`/app;jsessionid=...`) whose names look like credentials
 * ({@link isSecretName}: `token`, `api_key`, `password`, `sig`, `jwt`, `ticket`, ...) replaced by
 * `***` (or by what `hide` makes of the value: the cache keeps a digest).
 *
 * @example
 * redactUrl('https://ada:pw@api.example.com/x?api_key=s3cret&page=2'); // 'https://***@api.example.com/x?api_key=***&page=2'
 */
export function redactUrl(url: string, hide: (value: string) => string = () => '***'): string {
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
  return `${text.slice(0, pathStart)}${withSecretParametersHidden(text.slice(pathStart), hide)}`;
}

/**
 * A path with its query and fragment (`/app;jsessionid=x?page=2&sig=y#top`), the values of
 * credential-like parameters replaced by what `hide` makes of them (`***` unless told).
 */
function withSecretParametersHidden(reference: string, hide: (value: string) => string = () => '***'): string {
  const hash = reference.indexOf('#');
  const end = hash < 0 ? reference.length : hash;
  const query = reference.indexOf('?');
  const pathEnd = query < 0 || query > end ? end : query;
  const hidden = (name: string, value: string, all: string) =>
    isSecretName(decodeName(name)) ? `${all.slice(0, all.length - value.length)}${hide(value)}` : all;
  const path = reference.slice(0, pathEnd).replace(/;([^=;/]+)=([^;/]*)/g, (all: string, name: string, value: string) => hidden(name, value, all));
  const search = reference
    .slice(pathEnd, end)
    .replace(/([?&;])([^=&;]+)=([^&;]*)/g, (all: string, _at: string, name: string, value: string) => hidden(name, value, all));
  return `${path}${search}${reference.slice(end)}`;
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

/**
 * A URI reference as a header carries it (`Location`, a `Link` target) for a log line: an absolute
 * one as {@link redactUrl} shows it (user info and credential-like parameter values as `***`);
 * a relative one stays relative (`/next?sig=***`, `//***@host/x`), its text otherwise as it came.
 *
 * @example
 * redactReference('/download?X-Amz-Signature=abc&part=2'); // '/download?X-Amz-Signature=***&part=2'
 */
export function redactReference(reference: string): string {
  // one that does not parse (a bad port, say) is no less a secret's carrier
  if (SCHEME.test(reference)) return URL.canParse(reference) ? redactUrl(reference) : withSecretParametersHidden(redactUserInfo(reference));
  // scheme-relative: an authority, so maybe user info; shown as an http URL is, without the `http:`
  if (reference.startsWith('//')) return redactReference(`http:${reference}`).slice('http:'.length);
  return withSecretParametersHidden(reference);
}

/**
 * A URI reference with only its user info hidden ({@link redactUserInfo}), the rest as it came:
 * for a file that is replayed, where a query must still match (`//ada:pw@host/x` → `//***@host/x`).
 */
export function hideReferenceUserInfo(reference: string): string {
  if (SCHEME.test(reference)) return redactUserInfo(reference);
  if (reference.startsWith('//')) return redactUserInfo(`http:${reference}`).slice('http:'.length);
  return reference; // a relative path has no authority, so no user info
}

/** A reference that starts with a scheme (`https:`, `s3:`): an absolute URL. */
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
