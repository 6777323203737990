import type { WireResponse } from '../model/backend.js';
import { firstHeader } from '../model/response-headers.js';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The Location to follow, or `undefined` when `response` is no redirect to follow. */
export function redirectLocation(response: WireResponse): string | undefined {
  const raw = REDIRECTS.has(response.statusCode) ? firstHeader(response.headers, 'location') : undefined;
  return raw === undefined ? undefined : utf8Location(raw);
}

/**
 * Every transport hands header bytes over as Latin-1 text, so a Location sent as raw UTF-8
 * (not allowed, but common: `/café`) would arrive as `/cafÃ©` and be percent-encoded into
 * another path. Like browsers, read such bytes as UTF-8 when they are valid UTF-8.
 */
function utf8Location(value: string): string {
  // eslint-disable-next-line no-control-regex -- only bytes beyond ASCII, and nothing that is not a byte
  if (!/[\x80-\xff]/.test(value) || /[^\x00-\xff]/.test(value)) return value;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(value, (c) => c.charCodeAt(0)));
  } catch {
    return value; // Latin-1 after all: the URL parser encodes it as it stands
  }
}
