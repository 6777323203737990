// The challenge / credentials grammar of RFC 7235 §2.1 and §4.1 (with the list rule and
// quoted-string of RFC 7230 §7 and §3.2.6), written from the RFC for the test server:
//
//   WWW-Authenticate = 1#challenge
//   challenge   = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
//   credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
//   auth-param  = token BWS "=" BWS ( token / quoted-string )
//   token68     = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="

/** One parsed challenge (or credentials). */
export interface AuthChallenge {
  /** The auth-scheme as received (compare case-insensitively). */
  scheme: string;
  /** The token68 form, when the scheme was followed by one instead of parameters. */
  token68?: string;
  /** Parameter values (quoted strings unescaped) by lower-cased name. */
  params: Record<string, string>;
  /** Lower-cased names of the parameters whose value was a quoted-string. */
  quoted: ReadonlySet<string>;
}

/** A header value that does not follow the RFC 7235 grammar. */
export class AuthSyntaxError extends Error {
  override name = 'AuthSyntaxError';
}

const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const TOKEN68_CHAR = /[A-Za-z0-9\-._~+/]/;

/** Parses a `WWW-Authenticate` value: one or more comma-separated challenges. */
export function parseChallenges(value: string): AuthChallenge[] {
  const p = new Parser(value);
  const challenges: AuthChallenge[] = [];
  p.skipListSeparators();
  while (!p.done()) {
    challenges.push(p.challenge());
    p.skipListSeparators();
  }
  if (challenges.length === 0) throw new AuthSyntaxError('no challenge');
  return challenges;
}

/** Parses an `Authorization` value: exactly one credentials. */
export function parseCredentials(value: string): AuthChallenge {
  const all = parseChallenges(value);
  if (all.length !== 1) throw new AuthSyntaxError(`expected one credentials, found ${all.length}`);
  return all[0];
}

/** The value of parameter `name` (case-insensitive), or undefined; never an inherited property. */
export function param(challenge: AuthChallenge, name: string): string | undefined {
  const key = name.toLowerCase();
  return Object.hasOwn(challenge.params, key) ? challenge.params[key] : undefined;
}

/** `value` as a quoted-string: wrapped in `"`, with `"` and `\` backslash-escaped. */
export function quoteString(value: string): string {
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

class Parser {
  #i = 0;
  constructor(private readonly s: string) {}

  done(): boolean {
    return this.#i >= this.s.length;
  }

  /** Skips OWS and empty list elements (RFC 7230 §7: `a, , b` is two elements). */
  skipListSeparators(): void {
    while (!this.done() && /[ \t,]/.test(this.s[this.#i])) this.#i++;
  }

  challenge(): AuthChallenge {
    const scheme = this.token();
    if (scheme === undefined) throw this.error('expected an auth-scheme');
    const params = new Map<string, string>();
    const quoted = new Set<string>();
    const result = (token68?: string): AuthChallenge => ({
      scheme,
      ...(token68 === undefined ? {} : { token68 }),
      params: Object.fromEntries(params),
      quoted,
    });
    const spaces = this.skip(/[ ]/);
    this.skip(/[ \t]/);
    if (this.done() || this.s[this.#i] === ',') return result();
    if (spaces === 0) throw this.error('expected a space after the auth-scheme');
    const token68 = this.token68();
    if (token68 !== undefined) return result(token68);
    for (;;) {
      const name = this.token();
      if (name === undefined) throw this.error('expected a parameter name');
      this.skip(/[ \t]/);
      if (this.s[this.#i] !== '=') throw this.error(`expected "=" after ${JSON.stringify(name)}`);
      this.#i++;
      this.skip(/[ \t]/);
      const key = name.toLowerCase();
      if (params.has(key)) throw this.error(`parameter ${JSON.stringify(name)} repeated`);
      if (this.s[this.#i] === '"') {
        params.set(key, this.quotedString());
        quoted.add(key);
      } else {
        const value = this.token();
        if (value === undefined) throw this.error(`expected a token or quoted-string for ${JSON.stringify(name)}`);
        params.set(key, value);
      }
      this.skip(/[ \t]/);
      if (this.done()) return result();
      if (this.s[this.#i] !== ',') throw this.error('expected "," between parameters');
      this.skipListSeparators();
      if (this.done() || !this.paramAhead()) return result();
    }
  }

  // A token68 only when the whole rest of this list element is one (`realm=x` is a parameter).
  token68(): string | undefined {
    const start = this.#i;
    this.skip(TOKEN68_CHAR);
    if (this.#i === start) return undefined;
    this.skip(/=/);
    const end = this.#i;
    this.skip(/[ \t]/);
    if (this.done() || this.s[this.#i] === ',') return this.s.slice(start, end);
    this.#i = start;
    return undefined;
  }

  // After a comma: `name =` starts another parameter; anything else starts a new challenge.
  paramAhead(): boolean {
    const start = this.#i;
    const name = this.token();
    this.skip(/[ \t]/);
    const ahead = name !== undefined && this.s[this.#i] === '=';
    this.#i = start;
    return ahead;
  }

  token(): string | undefined {
    const start = this.#i;
    this.skip(TCHAR);
    return this.#i === start ? undefined : this.s.slice(start, this.#i);
  }

  // quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE; quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text )
  quotedString(): string {
    this.#i++; // opening quote
    let out = '';
    while (!this.done()) {
      const c = this.s[this.#i++];
      if (c === '"') return out;
      const escaped = c === '\\';
      const ch = escaped ? this.s[this.#i++] : c;
      if (ch === undefined) break;
      const code = ch.charCodeAt(0);
      if ((code < 0x20 && ch !== '\t') || code === 0x7f) throw this.error('control character in a quoted-string');
      out += ch;
    }
    throw this.error('unterminated quoted-string');
  }

  skip(chars: RegExp): number {
    const start = this.#i;
    while (!this.done() && chars.test(this.s[this.#i])) this.#i++;
    return this.#i - start;
  }

  error(message: string): AuthSyntaxError {
    return new AuthSyntaxError(`${message} at offset ${this.#i}`);
  }
}
