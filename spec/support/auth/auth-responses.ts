import type { ServerResponse } from 'node:http';
import type { RecordedRequest } from '../recorded-request.js';
import { writeResponse } from '../response-writer.js';

/** The verbs a protected route answers by default. */
export const DEFAULT_AUTH_METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

/** The body of an authorized response (none for HEAD). */
export const OK_TEXT = 'ok-text';

const TEXT = 'text/plain; charset=utf-8';

/** The body an authorized answer to `req` carries: `ok-text`, or empty for HEAD. */
export function okBody(req: RecordedRequest): string {
  return req.method === 'HEAD' ? '' : OK_TEXT;
}

/**
 * A header value as node must be given it for its UTF-8 bytes to go on the wire: node writes
 * each character of a header string as one byte (latin1), and throws above U+00FF.
 */
export function utf8Field(value: string): string {
  return Buffer.from(value, 'utf8').toString('latin1');
}

/** 200 text/plain `ok-text` (no body for HEAD) with `headers` added (sent as UTF-8). */
export function sendOk(req: RecordedRequest, res: ServerResponse, headers: Record<string, string> = {}): void {
  const body = okBody(req);
  const fields = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, utf8Field(value)]));
  writeResponse(res, { status: 200, headers: { 'Content-Type': TEXT, ...fields }, ...(body === '' ? {} : { body }) });
}

/** 401 text/plain `Unauthorized` (no body for HEAD), one `WWW-Authenticate` field line per challenge (sent as UTF-8). */
export function sendChallenge(req: RecordedRequest, res: ServerResponse, challenges: string[]): void {
  writeResponse(res, {
    status: 401,
    headers: { 'Content-Type': TEXT, 'WWW-Authenticate': challenges.map(utf8Field) },
    ...(req.method === 'HEAD' ? {} : { body: 'Unauthorized' }),
  });
}

/** Every value of the `Authorization` header, one per field line received. */
export function authorizationLines(req: RecordedRequest): string[] {
  return req.rawHeaders.filter(([name]) => name.toLowerCase() === 'authorization').map(([, value]) => value);
}
