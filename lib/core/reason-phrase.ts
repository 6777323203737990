import { STATUS_CODES } from 'node:http';

// RFC 9110 renamed these two; node still spells them as RFC 7231 did
const RENAMED: Readonly<Record<number, string>> = { 413: 'Content Too Large', 422: 'Unprocessable Content' };

/**
 * The standard reason phrase of a status (RFC 9110), `''` for a status that has none: what a
 * response without one (HTTP/2, a server that sends none) is described with.
 *
 * @example
 * standardReason(404); // 'Not Found'
 */
export function standardReason(status: number): string {
  return RENAMED[status] ?? STATUS_CODES[status] ?? '';
}
