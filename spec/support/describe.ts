// Formatting helpers for the test server's diagnostics (the 404 report of an unmatched request).

const MAX_TEXT = 400; // characters of a body shown before "…"
const MAX_HEX = 64; // bytes of a binary body shown in hex

/** A value as JSON, so strings show their quotes and invisible characters. */
export function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** A body for humans: quoted text when it is printable UTF-8, otherwise hex; always with its size. */
export function describeBytes(bytes: Buffer): string {
  if (bytes.length === 0) return '(empty)';
  const size = `(${bytes.length} byte${bytes.length === 1 ? '' : 's'})`;
  const text = printableText(bytes);
  if (text !== undefined) {
    return text.length > MAX_TEXT ? `${show(text.slice(0, MAX_TEXT))}… ${size}` : `${show(text)} ${size}`;
  }
  const hex = bytes.subarray(0, MAX_HEX).toString('hex');
  return `hex ${hex}${bytes.length > MAX_HEX ? '…' : ''} ${size}`;
}

function printableText(bytes: Buffer): string | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  // Control characters other than tab/CR/LF suggest binary data (e.g. a compressed body).
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text) ? undefined : text;
}
