/**
 * The file name a `Content-Disposition` header offers, made safe to write in the current folder
 * (`hb -O -J`). Read as browsers read it (RFC 6266): `filename*=UTF-8''…` (RFC 8187) before
 * `filename=` (which is used when the first leaves nothing safe); a `filename=` whose bytes are
 * UTF-8 is read as UTF-8 (header values arrive as Latin-1 characters, one per byte). Then only
 * the part after the last `/` or `\`, no leading dots (no dot files, no `..`), no control or
 * invisible formatting characters (no right-to-left override), no `:`, no Windows device name
 * (`NUL`, `CON.txt`, `COM¹` get a `_` in front), at most 255 UTF-8 bytes (the extension kept).
 * `undefined` when nothing usable is left.
 *
 * @example
 * safeDispositionName('attachment; filename="../../.bashrc"'); // 'bashrc'
 * safeDispositionName("attachment; filename=\"r.pdf\"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf"); // 'résumé.pdf'
 */
export function safeDispositionName(header: string | null): string | undefined {
  const params = dispositionParams(header ?? '');
  const extended = params.get('filename*');
  const plain = params.get('filename');
  return safe(extended === undefined ? undefined : extendedValue(extended)) ?? safe(plain === undefined ? undefined : utf8Bytes(plain));
}

/** The longest name most file systems take, in UTF-8 bytes. */
const MAX_NAME_BYTES = 255;

function safe(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const name = raw
    .slice(Math.max(raw.lastIndexOf('/'), raw.lastIndexOf('\\')) + 1)
    // control and formatting characters: invisible, or turning how the name reads (U+202E)
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, '')
    // dots and whitespace together (' .npmrc' is a dot file once trimmed), and at the end (Windows drops them);
    // no ':' (a drive on Windows, an NTFS stream)
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .replace(/:/g, '_');
  if (name === '') return undefined;
  // a device name opens the device on Windows, whatever its extension (and spaces before it)
  const named = /^(?:con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])\s*(?:\.|$)/i.test(name) ? `_${name}` : name;
  return shortened(named);
}

/** `name` cut to {@link MAX_NAME_BYTES} UTF-8 bytes, its extension (up to 16 characters) kept. */
function shortened(name: string): string {
  const encoder = new TextEncoder();
  if (encoder.encode(name).length <= MAX_NAME_BYTES) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  let stem = [...name.slice(0, name.length - extension.length)];
  while (stem.length > 0 && encoder.encode(stem.join('') + extension).length > MAX_NAME_BYTES) stem = stem.slice(0, -1);
  return stem.join('') + extension;
}

/**
 * The parameters of a `Content-Disposition` value (names in lower case, the first of each kept),
 * split at each `;` outside quotes: a `;` or `filename*=` inside another parameter's quoted value
 * is not a parameter. A quoted value is read to its closing quote (`\` escapes).
 */
function dispositionParams(header: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const part of partsOutsideQuotes(header)) {
    const match = /^\s*([^\s=]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s"]*))/.exec(part);
    if (match === null) continue;
    const name = match[1].toLowerCase();
    if (!params.has(name)) params.set(name, match[2] === undefined ? match[3] : match[2].replace(/\\(.)/g, '$1'));
  }
  return params;
}

/** `header` split at each `;` that is not inside a quoted string. */
function partsOutsideQuotes(header: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < header.length; i++) {
    const char = header[i];
    if (quoted && char === '\\') i++;
    else if (char === '"') quoted = !quoted;
    else if (char === ';' && !quoted) {
      parts.push(header.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(header.slice(start));
  return parts;
}

/** A `filename*` value, `charset'language'percent-encoded`, in UTF-8 or ISO-8859-1; `undefined` when malformed or in another charset. */
function extendedValue(value: string): string | undefined {
  const match = /^(utf-8|iso-8859-1)'[^']*'(.*)$/i.exec(value);
  if (match === null) return undefined;
  if (match[1].toLowerCase() === 'iso-8859-1') return match[2].replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  try {
    return decodeURIComponent(match[2]);
  } catch {
    return undefined; // not UTF-8: the plain filename= is read instead
  }
}

/** `text` taken as bytes (one per character) and decoded as UTF-8 if it is valid UTF-8; else `text` unchanged. */
function utf8Bytes(text: string): string {
  // eslint-disable-next-line no-control-regex -- only ASCII stays as it is
  if (/^[\u0000-\u007f]*$/.test(text) || /[^\u0000-\u00ff]/.test(text)) return text;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(text, (char) => char.charCodeAt(0)));
  } catch {
    return text;
  }
}
