import { ConfigError, EncodeError, ResultTypeError } from '../errors.js';
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
export async function exchange(record: RequestRecord, plan: Plan): Promise<unknown> {
  try {
    return await exchangeOnce(record, plan);
  } catch (error) {
    const handle = plan.handlers.find((tier) => tier.exception)?.exception;
    // bad input is the caller's bug, not an outcome of the exchange: it always propagates
    if (!handle || error instanceof ConfigError || error instanceof EncodeError) throw error;
    return await convertResult(await handle(error), plan.resultType);
  }
}

async function exchangeOnce(record: RequestRecord, plan: Plan): Promise<unknown> {
  const wire = await toWireRequest(record, plan);
  let response;
  try {
    response = await plan.backend.send(wire);
  } catch (error) {
    throw toTransportError(error, wire.url);
  }
  const fromServer = new FromServer(response, wire.method, wire.url);
  try {
    const body = await readBody(fromServer, record, plan);
    const result = await dispatch(fromServer, body, plan.handlers);
    return await convertResult(result, plan.resultType);
  } finally {
    fromServer.discard();
  }
}

/** The body handlers receive: text or bytes for String/Buffer results, else what the content type's parser makes of it. */
async function readBody(fromServer: FromServer, record: RequestRecord, plan: Plan): Promise<unknown> {
  if (await fromServer.peekEmpty()) return null;
  const raw = rawBodyKind(plan.resultType);
  if (raw === 'text') return fromServer.text();
  if (raw === 'bytes') return fromServer.bytes();
  const parse: Parser = lookup(plan.parsers, fromServer.contentType) ?? lookup([DEFAULT_PARSERS], '*/*')!;
  try {
    return await parse(fromServer, record);
  } catch (error) {
    if (error instanceof ResultTypeError || fromServer.statusCode < 400) throw error;
    // an error page in the wrong format should still surface as the HTTP error, with its text
    return (await fromServer.bytes().catch(() => Buffer.alloc(0))).toString('utf8');
  }
}
