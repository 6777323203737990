/**
 * A test-side multipart parser, written from RFC 2046 §5.1.1 (multipart syntax) and RFC 7578
 * (multipart/form-data), independent of the library's encoder. Strict: anything the RFCs do not
 * allow throws, so a malformed body fails the test that reads it.
 */

/** One body part as received. */
export interface ParsedPart {
  /** Header name/value pairs in order, names as received. */
  readonly rawHeaders: ReadonlyArray<readonly [string, string]>;
  /** Headers by lower-cased name (a repeated header throws: RFC 7578 parts have one of each). */
  readonly headers: Readonly<Record<string, string>>;
  /** `Content-Disposition` split up: its type (lower-cased) and parameters (names lower-cased, values unquoted). */
  readonly disposition: { readonly type: string; readonly params: Readonly<Record<string, string>> } | undefined;
  /** The part's content, exactly the bytes between its header block and the next delimiter. */
  readonly body: Buffer;
}

export interface ParsedMultipart {
  readonly boundary: string;
  readonly preamble: Buffer;
  readonly parts: ParsedPart[];
  readonly epilogue: Buffer;
}

// RFC 2046: bchars := bcharsnospace / " " ; bcharsnospace := DIGIT / ALPHA / "'" / "(" / ")" / "+" / "_" / "," / "-" / "." / "/" / ":" / "=" / "?"
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The `boundary` parameter of a `multipart/*` content type; throws when there is none or it is invalid. */
export function boundaryOf(contentType: string | undefined): string {
  if (contentType === undefined) throw new Error('no Content-Type');
  const { type, params } = parseParameterized(contentType);
  if (!type.startsWith('multipart/')) throw new Error(`not a multipart type: ${type}`);
  const boundary = params.boundary;
  if (boundary === undefined) throw new Error('no boundary parameter');
  if (!BOUNDARY.test(boundary)) throw new Error(`invalid boundary: ${JSON.stringify(boundary)}`);
  return boundary;
}

/** Splits `body` into its parts by the boundary of `contentType`. */
export function parseMultipart(body: Buffer, contentType: string | undefined): ParsedMultipart {
  const boundary = boundaryOf(contentType);
  const dashBoundary = Buffer.from(`--${boundary}`, 'latin1');
  const delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  // the first dash-boundary may open the body or follow a preamble and CRLF
  let start: number;
  let preamble: Buffer;
  if (body.subarray(0, dashBoundary.length).equals(dashBoundary)) {
    start = dashBoundary.length;
    preamble = Buffer.alloc(0);
  } else {
    const at = body.indexOf(delimiter);
    if (at < 0) throw new Error('no opening boundary');
    preamble = body.subarray(0, at);
    start = at + delimiter.length;
  }
  const parts: ParsedPart[] = [];
  for (;;) {
    if (body.subarray(start, start + 2).toString('latin1') === '--') {
      // close-delimiter, then optional transport padding and CRLF before the epilogue
      let after = skipPadding(body, start + 2);
      if (after < body.length) {
        if (body.subarray(after, after + 2).toString('latin1') !== '\r\n') throw new Error('garbage after the close delimiter');
        after += 2;
      }
      return { boundary, preamble, parts, epilogue: body.subarray(after) };
    }
    const lineEnd = skipPadding(body, start);
    if (body.subarray(lineEnd, lineEnd + 2).toString('latin1') !== '\r\n') throw new Error(`no CRLF after the boundary at byte ${start}`);
    const partStart = lineEnd + 2;
    const end = body.indexOf(delimiter, partStart); // an empty part: found right at partStart
    if (end < 0) throw new Error('no close delimiter');
    parts.push(parsePart(body.subarray(partStart, end)));
    start = end + delimiter.length;
  }
}

function skipPadding(body: Buffer, at: number): number {
  while (at < body.length && (body[at] === 0x20 || body[at] === 0x09)) at++;
  return at;
}

/** RFC 2046: body-part := MIME-part-headers [CRLF *OCTET]; a part without headers starts with CRLF. */
function parsePart(raw: Buffer): ParsedPart {
  let headerBlock: string;
  let body: Buffer;
  if (raw.subarray(0, 2).toString('latin1') === '\r\n') {
    headerBlock = '';
    body = raw.subarray(2);
  } else {
    const split = raw.indexOf('\r\n\r\n');
    if (split < 0) throw new Error('a part without the blank line that ends its headers');
    headerBlock = raw.subarray(0, split).toString('utf8');
    body = raw.subarray(split + 4);
  }
  const rawHeaders: Array<[string, string]> = [];
  const headers: Record<string, string> = {};
  // RFC 5322 folding: a line starting with whitespace continues the previous one
  const lines = headerBlock === '' ? [] : headerBlock.replace(/\r\n(?=[ \t])/g, '').split('\r\n');
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`malformed header line: ${JSON.stringify(line)}`);
    const name = line.slice(0, colon);
    if (!TOKEN.test(name)) throw new Error(`malformed header name: ${JSON.stringify(name)}`);
    const value = line.slice(colon + 1).trim();
    const lower = name.toLowerCase();
    if (lower in headers) throw new Error(`header ${name} repeated in one part`);
    rawHeaders.push([name, value]);
    headers[lower] = value;
  }
  const disposition = headers['content-disposition'] === undefined ? undefined : parseParameterized(headers['content-disposition']);
  return { rawHeaders, headers, disposition, body };
}

/** `type *(; name=value)` with token or quoted-string values (RFC 2045 §5.1, RFC 6266 §4.1). */
function parseParameterized(text: string): { type: string; params: Record<string, string> } {
  let at = 0;
  const skipSpace = () => {
    while (at < text.length && (text[at] === ' ' || text[at] === '\t')) at++;
  };
  const readToken = (stop: string): string => {
    const begin = at;
    while (at < text.length && !stop.includes(text[at])) at++;
    return text.slice(begin, at).trim();
  };
  skipSpace();
  const type = readToken(';').toLowerCase();
  if (type === '') throw new Error(`no type in ${JSON.stringify(text)}`);
  const params: Record<string, string> = {};
  while (at < text.length) {
    if (text[at] !== ';') throw new Error(`expected ';' at ${at} in ${JSON.stringify(text)}`);
    at++;
    skipSpace();
    const name = readToken('=;').toLowerCase();
    if (!TOKEN.test(name) || text[at] !== '=') throw new Error(`malformed parameter at ${at} in ${JSON.stringify(text)}`);
    at++;
    let value = '';
    if (text[at] === '"') {
      at++;
      for (;;) {
        if (at >= text.length) throw new Error(`unterminated quoted string in ${JSON.stringify(text)}`);
        const c = text[at++];
        if (c === '"') break;
        if (c === '\\') {
          if (at >= text.length) throw new Error(`unterminated quoted string in ${JSON.stringify(text)}`);
          value += text[at++];
        } else value += c;
      }
      skipSpace();
    } else {
      value = readToken(';');
      if (!TOKEN.test(value)) throw new Error(`malformed token value ${JSON.stringify(value)} in ${JSON.stringify(text)}`);
    }
    if (name in params) throw new Error(`parameter ${name} repeated in ${JSON.stringify(text)}`);
    params[name] = value;
  }
  return { type, params };
}
