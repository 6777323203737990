/**
 * The file name a `Content-Disposition` header offers, made safe to write in the current folder
 * (`hb -O -J`). Read as browsers read it (RFC 6266): `filename*=UTF-8''…` (RFC 8187) before
 * `filename=`; a `filename=` whose bytes are UTF-8 is read as UTF-8 (header values arrive as
 * Latin-1 characters, one per byte). Then only the part after the last `/` or `\`, no leading
 * dots (no dot files, no `..`), no control characters, no `:`, and no Windows device name
 * (`NUL`, `CON.txt` get a `_` in front). `undefined` when nothing usable is left.
 *
 * @example
 * safeDispositionName('attachment; filename="../../.bashrc"'); // 'bashrc'
 * safeDispositionName("attachment; filename=\"r.pdf\"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf"); // 'résumé.pdf'
 */
export function safeDispositionName(header: string | null): string | undefined {
  const raw = extendedName(header ?? '') ?? plainName(header ?? '');
  if (raw === undefined) return undefined;
  const name = raw
    .slice(Math.max(raw.lastIndexOf('/'), raw.lastIndexOf('\\')) + 1)
    // eslint-disable-next-line no-control-regex -- control characters (C0 and C1) are exactly what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    // dots and whitespace together (' .npmrc' is a dot file once trimmed), and at the end (Windows drops them);
    // no ':' (a drive on Windows, an NTFS stream)
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .replace(/:/g, '_');
  if (name === '') return undefined;
  // a device name opens the device on Windows, whatever its extension
  return /^(?:con|prn|aux|nul|com\d|lpt\d)(?:\.|$)/i.test(name) ? `_${name}` : name;
}

/** `filename=`, quoted or up to `;`, as curl reads it; its bytes decoded as UTF-8 when they are UTF-8. */
function plainName(header: string): string | undefined {
  const match = /(?:^|;)\s*filename\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(header);
  if (match === null) return undefined;
  return utf8Bytes(match[1] ?? match[2]);
}

/** `filename*=charset'language'percent-encoded` in UTF-8 or ISO-8859-1; `undefined` when absent or malformed. */
function extendedName(header: string): string | undefined {
  const match = /(?:^|;)\s*filename\*\s*=\s*(utf-8|iso-8859-1)'[^']*'([^;\s]*)/i.exec(header);
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
