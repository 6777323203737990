/** One challenge from `WWW-Authenticate`: a scheme and its auth-params (names lower case). */
export interface Challenge {
  readonly scheme: string;
  readonly params: Readonly<Record<string, string>>;
}

/**
 * Parses every challenge in the given `WWW-Authenticate` values (RFC 7235 §4.1): several may
 * share one header, params are `token=token` or `token="quoted \"string\""`, and commas separate
 * both params and challenges. A token68 challenge (`Negotiate abc==`) keeps its token as `token68`.
 */
export function parseChallenges(values: readonly string[]): Challenge[] {
  const challenges: Array<{ scheme: string; params: Record<string, string> }> = [];
  for (const value of values) {
    const lexer = new Lexer(value);
    while (!lexer.done()) {
      lexer.skip(/[\s,]*/y);
      const scheme = lexer.take(/[!#$%&'*+\-.^_`|~0-9A-Za-z]+/y);
      if (!scheme) break;
      const challenge = { scheme: scheme.toLowerCase(), params: {} as Record<string, string> };
      challenges.push(challenge);
      lexer.skip(/[ \t]*/y);
      // a token68 stands alone before the next comma: `Negotiate abc==,` (never `name=value`)
      const token68 = lexer.take(/[A-Za-z0-9\-._~+/]+=*(?=[ \t]*(,|$))/y);
      if (token68) {
        challenge.params.token68 = token68;
        continue;
      }
      // auth-params until the next `scheme ` (a token not followed by '=')
      for (;;) {
        const mark = lexer.position;
        lexer.skip(/[\s,]*/y);
        const name = lexer.take(/[!#$%&'*+\-.^_`|~0-9A-Za-z]+(?=[ \t]*=)/y);
        if (!name) {
          lexer.position = mark;
          break;
        }
        lexer.skip(/[ \t]*=[ \t]*/y);
        setOwn(challenge.params, name.toLowerCase(), lexer.quoted() ?? lexer.take(/[^\s,]*/y) ?? '');
      }
    }
  }
  return challenges;
}

/** `params[name] = value` as an own property: a `__proto__` param from the server is a param, never the object's prototype. */
function setOwn(params: Record<string, string>, name: string, value: string): void {
  Object.defineProperty(params, name, { value, writable: true, enumerable: true, configurable: true });
}

/** A tiny sticky-regex reader over one header value. */
class Lexer {
  position = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    return this.position >= this.text.length;
  }

  skip(pattern: RegExp): void {
    this.take(pattern);
  }

  take(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.position;
    const match = pattern.exec(this.text);
    if (!match || match[0] === '') return undefined;
    this.position += match[0].length;
    return match[0];
  }

  /** A quoted-string with its backslash escapes undone, or undefined when none starts here. */
  quoted(): string | undefined {
    if (this.text[this.position] !== '"') return undefined;
    let out = '';
    for (let i = this.position + 1; i < this.text.length; i++) {
      const char = this.text[i];
      if (char === '\\' && i + 1 < this.text.length) out += this.text[++i];
      else if (char === '"') {
        this.position = i + 1;
        return out;
      } else out += char;
    }
    this.position = this.text.length; // unterminated: take the rest
    return out;
  }
}
