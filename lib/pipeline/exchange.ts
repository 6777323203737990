import { ConfigError, EncodeError, ResultTypeError } from '../errors.js';
import { encodeBody } from '../content/encoders.js';
import { DEFAULT_PARSERS, type Parser } from '../content/parsers.js';
import { lookup } from '../content/media-type.js';
import { convertResult } from '../result/convert.js';
import { rawBodyKind } from '../result/result-type.js';
import { dispatch } from './dispatch.js';
import type { Plan } from './freeze.js';
import { FromServer } from './from-server.js';
import type { RequestRecord } from './request-record.js';
import { toTransportError } from './transport-error.js';
import { toWireRequest } from './wire-request.js';

/**
 * The core of a call, inside the interceptors: encode → backend → decompress → parse →
 * handler dispatch → result type. The exception handler sees any error of the exchange.
 */
export function exchange(record: RequestRecord, plan: Plan): Promise<unknown> {
  const handle = plan.handlers.find((tier) => tier.exception)?.exception;
  if (!handle) return exchangeOnce(record, plan);
  return exchangeOnce(record, plan).catch(async (error: unknown) => {
    // bad input is the caller's bug, not an outcome of the exchange: it always propagates
    if (error instanceof ConfigError || error instanceof EncodeError) throw error;
    return convertResult(await handle(error), plan.resultType);
  });
}

// Awaits only where something is really pending: each await is a trip through the microtask
// queue, and per-request overhead is what the benchmark measures against raw node:http.
async function exchangeOnce(record: RequestRecord, plan: Plan): Promise<unknown> {
  const encoded = record.body === null || record.body === undefined ? undefined : await encodeBody(record, plan.encoders);
  const wire = toWireRequest(record, plan, encoded);
  let response;
  try {
    response = await plan.backend.send(wire);
  } catch (error) {
    throw toTransportError(error, wire.url);
  }
  const fromServer = new FromServer(response, wire.method, wire.url);
  try {
    const body = await readBody(fromServer, record, plan);
    return convertResult(await dispatch(fromServer, body, plan.handlers), plan.resultType);
  } finally {
    fromServer.discard();
  }
}

/** The body handlers receive: text or bytes for String/Buffer results, else what the content type's parser makes of it. */
async function readBody(fromServer: FromServer, record: RequestRecord, plan: Plan): Promise<unknown> {
  if (!fromServer.hasBody || (fromServer.mayBeEmpty() && (await fromServer.peekEmpty()))) return null;
  const raw = rawBodyKind(plan.resultType);
  if (raw === 'text') return fromServer.text();
  if (raw === 'bytes') return fromServer.bytes();
  const parse: Parser = lookup(plan.parsers, fromServer.contentType) ?? fallbackParser;
  try {
    return await parse(fromServer, record);
  } catch (error) {
    if (error instanceof ResultTypeError || fromServer.statusCode < 400) throw error;
    // an error page in the wrong format should still surface as the HTTP error, with its text
    return (await fromServer.bytes().catch(() => Buffer.alloc(0))).toString('utf8');
  }
}

const fallbackParser: Parser = DEFAULT_PARSERS.get('*/*')!;
