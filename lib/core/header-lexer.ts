/**
 * A tiny sticky-regex reader over one header value, for the parsers of parameterised headers
 * (`WWW-Authenticate`, `Link`).
 *
 * @example
 * const lexer = new HeaderLexer('Digest realm="a, b"');
 * lexer.take(/[A-Za-z]+/y); // 'Digest'
 */
export class HeaderLexer {
  position = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    return this.position >= this.text.length;
  }

  /** The match at the position (possibly `''`), consumed; undefined when the pattern does not match here. */
  take(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.position;
    const match = pattern.exec(this.text);
    if (!match) return undefined;
    this.position += match[0].length;
    return match[0];
  }

  /**
   * A quoted-string with its backslash escapes undone, or undefined (nothing consumed) when
   * none starts here. One never closed is the rest of the value with `unclosed: 'rest'`, else
   * undefined with nothing consumed.
   */
  quoted(unclosed: 'rest' | 'none' = 'none'): string | undefined {
    const closed = this.take(/"(?:[^"\\]|\\.)*"/sy);
    if (closed !== undefined) return closed.slice(1, -1).replace(/\\(.)/gs, '$1');
    if (unclosed === 'none' || this.text[this.position] !== '"') return undefined;
    const rest = this.text.slice(this.position + 1).replace(/\\(.)/gs, '$1');
    this.position = this.text.length;
    return rest;
  }
}
