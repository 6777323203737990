import { HeaderLexer } from '../core/header-lexer.js';
import { setOwn } from '../core/own-property.js';

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
    const lexer = new HeaderLexer(value);
    while (!lexer.done()) {
      lexer.take(/[\s,]*/y);
      const scheme = lexer.take(/[!#$%&'*+\-.^_`|~0-9A-Za-z]+/y);
      if (!scheme) break;
      const challenge = { scheme: scheme.toLowerCase(), params: {} as Record<string, string> };
      challenges.push(challenge);
      lexer.take(/[ \t]*/y);
      // a token68 stands alone before the next comma: `Negotiate abc==,` (never `name=value`)
      const token68 = lexer.take(/[A-Za-z0-9\-._~+/]+=*(?=[ \t]*(,|$))/y);
      if (token68) {
        challenge.params.token68 = token68;
        continue;
      }
      // auth-params until the next `scheme ` (a token not followed by '=')
      for (;;) {
        const mark = lexer.position;
        lexer.take(/[\s,]*/y);
        const name = lexer.take(/[!#$%&'*+\-.^_`|~0-9A-Za-z]+(?=[ \t]*=)/y);
        if (!name) {
          lexer.position = mark;
          break;
        }
        lexer.take(/[ \t]*=[ \t]*/y);
        setOwn(challenge.params, name.toLowerCase(), lexer.quoted('rest') ?? lexer.take(/[^\s,]*/y) ?? '');
      }
    }
  }
  return challenges;
}
