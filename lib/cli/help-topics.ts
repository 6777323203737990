import { UsageError } from './failure.js';
import { closest } from './suggest.js';

/**
 * `hb help <topic>`: what `hb --help` leaves out, one screen per topic. `all` prints every
 * topic in this order.
 */
export const HELP_TOPICS: Readonly<Record<string, string>> = {
  items: `Request items (after the URL, as httpie writes them):
  name=value       a JSON string field; a form field with --form (or with a file item)
  name:=json       a raw JSON value: age:=36, tags:='["a","b"]', ok:=true
  name==value      a query parameter (as -q name=value)
  Header:value     a request header (as -H 'Header: value')
  Header:          leave out a header hb would send (User-Agent:, Accept:)
  Header;          send the header with an empty value
  name@path        a file part: the request becomes multipart/form-data
Fields and raw JSON make one JSON object (Content-Type: application/json); a name given again
keeps its last value. Nested names as httpie 3: user[name]=Ada, tags[]=x (append), l[2]=z,
[]=x (an array body). A '\\' before a separator keeps it in the name: 'a\\=b=c'.
Without a verb the method is GET, or POST when there is a body; -X <METHOD> names any method.
A host named like a verb or 'help' needs its scheme: hb http://get/.
  hb localhost:8080/users name=Ada age:=36 X-Trace:on
  hb --form localhost:8080/upload note=draft report@./report.pdf
  hb -X PROPFIND https://dav.example.com/files/ Depth:1
`,
  output: `What hb prints (stdout):
  --print <HBhb>    H request head, B request body, h response head, b response body
  --headers         the response head only (status line and headers)
  -b, --body        the response body only (the default)
  -i, --include     the response head, then the body
  --quiet           nothing on success (errors still go to stderr)
  --offline         print the request (--print HB unless given) without sending it
  --curl            print only the equivalent curl command, without sending
  -v, --verbose     each request and response head on stderr (credentials as ***)
JSON is pretty-printed and coloured on a terminal (NO_COLOR turns colours off) and written
byte for byte when piped; other bodies are written as received. Redirects are followed
(10 at most).
  hb get localhost:8080/users --print Hh
  hb post localhost:8080/users name=Ada --curl | sh
`,
  body: `Request bodies (or use request items: hb help items):
  --json '<text>'         send JSON text (Content-Type: application/json); @file, @- (stdin)
  --data '<text>'         send the body as it is (@file: streamed, @- for stdin); its type from
                          -H 'Content-Type: ...', else application/octet-stream
  --form name=value       send a form field (repeatable; urlencoded, or multipart with --file);
                          --form before the URL (no value): items become form fields
  --file name=@path       send a file as multipart/form-data (repeatable)
  --compress              compress a body of 1 KiB or more (Content-Encoding: gzip);
                          twice: every body but an empty one
  --compress-with <coding>  gzip, deflate (httpie's -x) or br (compresses even without --compress)
A body piped on stdin is sent only with --data @- or --json @-; otherwise hb refuses (exit 2).
`,
  auth: `Authentication:
  --basic user:pass       Basic authentication (sent with the first request)
  --digest user:pass      Digest authentication (answers the server's challenge)
  --bearer <token>        send Authorization: Bearer <token>
  http://user:pass@host   credentials in the URL are sent as Basic
  --netrc                 Basic credentials for the host from ~/.netrc
  --netrc-file <path>     the same from this file
Passwords and tokens never appear in hb's messages.
`,
  tls: `TLS:
  -k, --insecure              do not verify the server's TLS certificate (pins still checked)
      --cacert <file>         trust the PEM certificates in this file instead of the system's
      --cert <file[:pass]>    client certificate: PEM (with its key, or --key) or PKCS#12
      --cert-type <PEM|P12>   how to read --cert (default: PEM if the file is PEM text)
      --key <file>            the PEM private key of --cert
      --pass <phrase>         passphrase of the key or PKCS#12 file (never printed)
      --pinnedpubkey <pins>   sha256//<base64>[;sha256//...] or a public key file (PEM/DER):
                              the server's key must match one (exit 1 otherwise)
      --http2                 offer HTTP/2 on https (http:// stays HTTP/1.1)
`,
  transport: `Connections:
  --backend <name>        native (default), undici, axios, got or fetch
  --public-only           connect only to public addresses: loopback, private and
                          link-local ones (cloud metadata) are refused (exit 1)
  --proxy <url>           send requests through this proxy: http://[user:pass@]host:port
                          (default: https_proxy / http_proxy from the environment, as curl)
  --noproxy <list>        hosts that go direct, comma-separated (instead of no_proxy)
  --unix-socket <path>    connect to this Unix domain socket (the URL gives Host and path)
  --resolve host:port:addr  connect to addr for host on port, without DNS (repeatable)
  -4, -6                  resolve names to IPv4 / IPv6 addresses only
  --no-follow             do not follow redirects: the 3xx is the answer (exit 0)
  --max-redirs <n>        follow at most n redirects (default 10); one more is exit 1
  --connect-timeout <ms>  limit for each connection's set-up, TCP and TLS
  --timeout <ms>          give up after this long, retries and redirects included
  --retry <n>             retry up to n times: idempotent methods, on network errors and
                          408, 413, 429, 500, 502, 503, 504 (Retry-After honoured)
  hb get http://docker/v1.43/containers/json --unix-socket /var/run/docker.sock
`,
  state: `Kept across runs:
  --session <file>        keep cookies in this file (created if missing)
  --cache <dir>           keep an HTTP cache in this folder (created if missing):
                          fresh answers without a request, stale ones revalidated
`,
  downloads: `Downloads:
  -o, --output <file>         save the body to a file (progress bar on a terminal); -o - is stdout
  -O, --remote-name           save it to a file named after the URL's last path segment
  -J, --remote-header-name    with -O: the name Content-Disposition gives (made safe; never overwrites)
  -C, --continue-at -         resume the -o/-O file where it ends (Range + If-Range)
  hb get https://example.com/big.iso -O -C -
`,
  paginate: `Lists and streams:
  --paginate              get every page (Link: rel="next") and print each item of the
                          pages' JSON arrays as one JSON line
  --items <json-pointer>  with --paginate: where each page's items are (e.g. /items)
  --next <json-pointer>   with --paginate: where the next page's cursor is, sent as
                          ?cursor=<value> (--cursor-param <name> for another name)
  --stream                print the body line by line as it arrives; server-sent events
                          (text/event-stream) as one JSON line each
  hb get https://api.github.com/repos/nodejs/node/issues --paginate | jq -r .title
  hb get https://api.github.com/search/issues -q q=label:bug --paginate --items /items
`,
  'write-out': `-w, --write-out <format>: curl's variables written to stdout after the body:
  %{http_code}, %{url_effective}, %{num_redirects}, %{size_download}, %{http_version},
  %{time_namelookup}, %{time_connect}, %{time_appconnect}, %{time_starttransfer},
  %{time_total} (seconds); \\n for a new line.
  hb get https://api.example.com/health -w '%{http_code} %{time_total}\\n'
`,
  exit: `Exit codes: 0 for a 2xx or 3xx answer, 4 for 4xx, 5 for 5xx, 1 for other failures
(network, TLS, timeout), 2 for bad input (nothing is sent), 130 on Ctrl-C.
Errors are reported as one line on stderr.
`,
};

/**
 * The text of `hb help <topic>` (`all`: every topic).
 *
 * @throws {UsageError} for an unknown topic, naming the topics (and the closest one).
 * @example
 * helpText('items'); // 'Request items (after the URL, as httpie writes them):\n...'
 */
export function helpText(topic: string): string {
  const name = topic.toLowerCase();
  if (name === 'all') return Object.values(HELP_TOPICS).join('\n');
  const text = HELP_TOPICS[name];
  if (Object.hasOwn(HELP_TOPICS, name) && text !== undefined) return text;
  const near = closest(name, Object.keys(HELP_TOPICS));
  throw new UsageError(`no help topic '${topic}'${near === undefined ? '' : ` (did you mean ${near}?)`}; topics: ${Object.keys(HELP_TOPICS).join(', ')}, all`);
}
