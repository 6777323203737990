/** The ANSI colours of {@link prettyJson} (jq's palette). */
const COLOURS = {
  key: '\x1b[34;1m',
  string: '\x1b[32m',
  number: '\x1b[0;39m',
  literal: '\x1b[1;30m',
  punctuation: '\x1b[1;39m',
  reset: '\x1b[0m',
} as const;

/**
 * Re-indents JSON text by two spaces per level, optionally with ANSI colours, and ends it with a
 * newline. It works on the text's tokens, not on a parsed value, so numbers keep every digit
 * (`12345678901234567890` stays as it is) and repeated keys are all shown.
 *
 * @returns the pretty text, or `undefined` when `text` is not valid JSON.
 * @example
 * prettyJson('{"a":[1,2]}', false); // '{\n  "a": [\n    1,\n    2\n  ]\n}\n'
 */
export function prettyJson(text: string, colour: boolean): string | undefined {
  const source = text.startsWith('\ufeff') ? text.slice(1) : text;
  try {
    JSON.parse(source);
  } catch {
    return undefined;
  }
  const paint = (kind: Exclude<keyof typeof COLOURS, 'reset'>, token: string) => (colour ? COLOURS[kind] + token + COLOURS.reset : token);
  const tokens = tokenize(source);
  let out = '';
  let depth = 0;
  const newline = () => '\n' + '  '.repeat(depth);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    switch (token) {
      case '{':
      case '[': {
        const close = token === '{' ? '}' : ']';
        if (tokens[i + 1] === close) {
          out += paint('punctuation', token + close);
          i++;
        } else {
          depth++;
          out += paint('punctuation', token) + newline();
        }
        break;
      }
      case '}':
      case ']':
        depth--;
        out += newline() + paint('punctuation', token);
        break;
      case ',':
        out += paint('punctuation', ',') + newline();
        break;
      case ':':
        out += paint('punctuation', ':') + ' ';
        break;
      default:
        if (token.startsWith('"')) out += paint(tokens[i + 1] === ':' ? 'key' : 'string', token);
        else if (token === 'true' || token === 'false' || token === 'null') out += paint('literal', token);
        else out += paint('number', token);
    }
  }
  return out + '\n';
}

/** Splits valid JSON text into its tokens, whitespace dropped, strings kept with their quotes and escapes. */
function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
    } else if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      tokens.push(text.slice(i, end + 1));
      i = end + 1;
    } else if ('{}[],:'.includes(c)) {
      tokens.push(c);
      i++;
    } else {
      let end = i;
      while (end < text.length && !' \t\n\r{}[],:"'.includes(text[end])) end++;
      tokens.push(text.slice(i, end));
      i = end;
    }
  }
  return tokens;
}
