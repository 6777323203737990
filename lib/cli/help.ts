import { VERSION } from '../core/version.js';

/** What `hb --version` prints. */
export const VERSION_TEXT = `hb (httpbuilder-ts) ${VERSION}\n`;

/** What `hb --help` prints: one screen of usage, common options and examples; `hb help <topic>` has the rest. */
export const HELP_TEXT = `Usage: hb <verb> <url> [options] [items]
       hb <url> [items] [options]          GET, or POST when there is a body
       hb -X <METHOD> <url> [items] [options]
       hb help <topic>   items, output, body, auth, tls, transport, state, downloads,
                         paginate, write-out, exit, all

Sends one HTTP request with httpbuilder-ts and prints the response body.
Verbs: get, head, post, put, delete, patch, options. A URL without a scheme means http://.
Items: name=value (JSON field), name:=json, name==value (query), Header:value, name@file.

Options (hb help <topic> for all of them):
  -H, --header 'Name: value'  add a request header (repeatable)
  -q, --query name=value      add a query parameter (repeatable)
  -X, --method <METHOD>       any method: PROPFIND, QUERY, ...
      --json '<text>'         send JSON text as the body (@file, @- for stdin)
      --data '<text>'         send the body as it is (@file, @- for stdin; --compress: hb help body)
      --form name=value       send a form field; --form alone: items make a form
      --file name=@path       send a file as multipart/form-data
      --basic user:pass       Basic authentication (--digest, --bearer: hb help auth)
      --digest user:pass      Digest authentication
      --backend <name>        native (default), undici, axios, got or fetch
  -k, --insecure              do not verify the server's certificate (hb help tls)
      --timeout <ms>          give up after this long (hb help transport)
      --retry <n>             retry up to n times
      --unix-socket, --resolve, -4, -6, --no-follow, --max-redirs, --connect-timeout:
                              how to connect (hb help transport)
      --netrc, --netrc-file   credentials from a .netrc file (hb help auth)
      --items, --next, --cursor-param: with --paginate (hb help paginate)
      --session <file>        keep cookies across runs in this file
  -o, --output <file>         save the body to a file (-o - for stdout)
  -O, -J, -C -                name from the URL or the server, resume (hb help downloads)
  -i, --include               print the response head before the body
      --print, --headers, -b, --quiet, --offline, --curl: what to print (hb help output)
  -v, --verbose               show each request and response head on stderr
  -h, --help                  show this help
      --version               show the version

Exit codes: 0 for 2xx/3xx, 4 for 4xx, 5 for 5xx, 1 for other failures, 2 for bad input.

Examples:
  hb localhost:8080/users name=Ada age:=36
  hb get https://api.example.com/users -q page=2 -H 'Accept: application/json'
  hb put localhost:8080/users/42 --json @user.json --session cookies.json
  hb -X PROPFIND https://dav.example.com/files/ Depth:1 --print Hh
  hb post localhost:8080/users name=Ada --curl
`;
