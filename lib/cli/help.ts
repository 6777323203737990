import { VERSION } from '../core/version.js';

/** What `hb --version` prints. */
export const VERSION_TEXT = `hb (httpbuilder-ts) ${VERSION}\n`;

/** What `hb --help` prints: usage, options, exit codes and examples. */
export const HELP_TEXT = `Usage: hb <verb> <url> [options]

Sends one HTTP request with httpbuilder-ts and prints the response body.
Verbs: get, head, post, put, delete, patch, options. A URL without a scheme means http://.

Options:
  -H, --header 'Name: value'  add a request header (repeatable)
  -q, --query name=value      add a query parameter (repeatable)
      --json '<text>'         send JSON text as the body (Content-Type: application/json);
                              --json @file and --json @- read it from a file or stdin
      --data '<text>'         send the body as it is (@file: streamed, @- for stdin); its type
                              from -H 'Content-Type: ...', else application/octet-stream
      --form name=value       send a form field (repeatable; urlencoded, or multipart with --file)
      --file name=@path       send a file as multipart/form-data (repeatable)
      --basic user:pass       Basic authentication (sent with the first request)
      --digest user:pass      Digest authentication (answers the server's challenge)
      --bearer <token>        send Authorization: Bearer <token>
      --backend <name>        native (default), undici, axios, got or fetch
  -k, --insecure              do not verify the server's TLS certificate (pins still checked)
      --cacert <file>         trust the PEM certificates in this file instead of the system's
      --cert <file[:pass]>    client certificate: PEM (with its key, or --key) or PKCS#12
      --cert-type <PEM|P12>   how to read --cert (default: PEM if the file is PEM text)
      --key <file>            the PEM private key of --cert
      --pass <phrase>         passphrase of the key or PKCS#12 file (never printed)
      --pinnedpubkey <pins>   sha256//<base64>[;sha256//...] or a public key file (PEM/DER):
                              the server's key must match one (exit 1 otherwise)
      --http2                 offer HTTP/2 on https (http:// stays HTTP/1.1)
      --public-only           connect only to public addresses: loopback, private and
                              link-local ones (cloud metadata) are refused (exit 1)
      --proxy <url>           send requests through this proxy: http://[user:pass@]host:port
                              (default: https_proxy / http_proxy from the environment, as curl)
      --noproxy <list>        hosts that go direct, comma-separated (instead of no_proxy)
      --unix-socket <path>    connect to this Unix domain socket (the URL gives Host and path)
      --resolve host:port:addr  connect to addr for host on port, without DNS (repeatable)
  -4, -6                      resolve names to IPv4 / IPv6 addresses only
      --no-follow             do not follow redirects: the 3xx is the answer (exit 0)
      --max-redirs <n>        follow at most n redirects (default 10); one more is exit 1
      --connect-timeout <ms>  limit for each connection's set-up, TCP and TLS
      --netrc                 Basic credentials for the host from ~/.netrc
      --netrc-file <path>     the same from this file
      --timeout <ms>          give up after this long, retries and redirects included
      --retry <n>             retry up to n times: idempotent verbs, on network errors and
                              408, 413, 429, 500, 502, 503, 504 (Retry-After honoured)
      --session <file>        keep cookies across runs in this file (created if missing)
      --cache <dir>           keep an HTTP cache across runs in this folder (created if missing):
                              fresh answers without a request, stale ones revalidated
  -o, --output <file>         save the body to a file (progress bar on a terminal); -o - is stdout
  -O, --remote-name           save it to a file named after the URL's last path segment
  -J, --remote-header-name    with -O: the name Content-Disposition gives (made safe; never overwrites)
  -C, --continue-at -         resume the -o/-O file where it ends (Range + If-Range)
      --paginate              get every page (Link: rel="next") and print each item of the
                              pages' JSON arrays as one JSON line
      --items <json-pointer>  with --paginate: where each page's items are (e.g. /items)
      --next <json-pointer>   with --paginate: where the next page's cursor is, sent as
                              ?cursor=<value> (--cursor-param <name> for another name)
      --stream                print the body line by line as it arrives; server-sent events
                              (text/event-stream) as one JSON line each
  -i, --include               print the status line and response headers before the body
  -v, --verbose               show each request and response head on stderr (credentials as ***)
  -w, --write-out <format>    write curl's variables to stdout after the body: %{http_code},
                              %{url_effective}, %{num_redirects}, %{size_download},
                              %{time_namelookup}, %{time_connect}, %{time_appconnect},
                              %{time_starttransfer}, %{time_total} (seconds), %{http_version}; \\n
  -h, --help                  show this help
      --version               show the version

Output: JSON is pretty-printed and coloured on a terminal (NO_COLOR turns colours off) and
written byte for byte when piped; other bodies are written as received. Redirects are followed
(10 at most).

Exit codes: 0 for a 2xx or 3xx answer, 4 for 4xx, 5 for 5xx, 1 for other failures
(network, TLS, timeout), 2 for bad input (nothing is sent), 130 on Ctrl-C.
A body piped on stdin is sent only with --data @- or --json @-; otherwise hb refuses (exit 2).
Errors are reported as one line on stderr.

Examples:
  hb get https://api.example.com/users -q page=2 -H 'Accept: application/json'
  hb post localhost:8080/users --json '{"name":"Ada"}'
  hb put localhost:8080/users/42 --json @user.json --session cookies.json
  hb post localhost:8080/import --data @- -H 'Content-Type: text/csv' < people.csv
  hb get https://api.example.com/health --timeout 5000 --retry 3 -v
  hb put https://api.example.com/users/42 --basic ada:secret --form name=Ada
  hb post https://upload.example.com/files --file report=@./report.pdf --form note=draft
  hb get https://localhost:8443/report.csv --insecure -o report.csv
  hb get https://example.com/big.iso -O -C -
  hb get https://intranet.example.com/api --cacert ca.pem --cert me.p12:secret --http2
  hb head https://example.com -i
  hb get https://intranet.example.com/api --digest ada:secret --backend got | jq .
  hb get https://api.github.com/repos/nodejs/node/issues --paginate | jq -r .title
  hb get https://api.github.com/search/issues -q q=label:bug --paginate --items /items
  hb get http://docker/v1.43/containers/json --unix-socket /var/run/docker.sock
  hb get https://stream.example.com/events --stream
  hb get https://api.example.com/health -w '%{http_code} %{time_total}\\n'
`;
