import { describeValue } from '../core/describe-value.js';
import { EncodeError } from '../core/errors.js';
import { loadOnce, type LoadOnce } from '../core/load-once.js';
import type { WireBody } from '../model/backend.js';
import type { FromServer } from '../model/from-server.js';
import type { RequestRecord } from '../model/request-record.js';
import { isFormData } from './form-data.js';
import { isMultipart } from './multipart-brand.js';

// The XML, CSV and multipart encoders and parsers as the built-in maps hold them: their code
// (deferred-content.ts) loads at the first use of any of them (a JSON client never does), so a
// browser bundle keeps it in a chunk of its own. They return promises, as the modules' own
// functions do; once the module is in it is called at once.

type DeferredContent = typeof import('./deferred-content.js');

/**
 * How deferred-content.ts is loaded: the pipeline plugs in its loader (pipeline/deferred-stage.ts,
 * which every client loads), whose entry imports the pipeline's shared-chunk list. Loaded from
 * here, it would reach only this layer's list, and a splitting bundler would keep the modules of
 * that list apart from the config and pipeline ones: one more chunk loaded with the application.
 */
let deferred: LoadOnce<DeferredContent> = loadOnce(() => Promise.reject(new Error('the content codecs need the pipeline (pipeline/deferred-stage.ts)')));

/** @internal Plugs in the loader of deferred-content.ts (deferred-stage.ts does, on import). */
export function useDeferredContent(loader: LoadOnce<DeferredContent>): void {
  deferred = loader;
}

/** xml.ts's `encodeXml`, loaded on first use. */
export async function encodeXml(body: unknown, request: RequestRecord): Promise<string> {
  return (deferred.loaded ?? (await deferred())).encodeXml(body, request);
}

/** xml.ts's `parseXml`, loaded on first use. */
export async function parseXml(fromServer: FromServer): Promise<unknown> {
  return (deferred.loaded ?? (await deferred())).parseXml(fromServer);
}

/** csv.ts's `encodeCsv`, loaded on first use. */
export async function encodeCsv(body: unknown, request: RequestRecord): Promise<string> {
  return (deferred.loaded ?? (await deferred())).encodeCsv(body, request);
}

/** csv.ts's `parseCsv`, loaded on first use. */
export async function parseCsv(fromServer: FromServer): Promise<string[][]> {
  return (deferred.loaded ?? (await deferred())).parseCsv(fromServer);
}

/**
 * The `multipart/form-data` encoder: a string is taken as already encoded (sent unchanged, with
 * the caller's content type and boundary); a `Multipart` or a web `FormData` is framed with a
 * fresh boundary (multipart-body.ts, loaded on first use). Anything else is refused at once.
 */
export function encodeMultipart(body: unknown): string | Promise<{ wire: WireBody; contentType: string }> {
  if (typeof body === 'string') return body;
  if (!isMultipart(body) && !isFormData(body)) {
    throw new EncodeError(`a 'multipart/form-data' body must be built with multipart() or be a FormData, not ${describeValue(body)}`);
  }
  const loaded = deferred.loaded;
  return loaded ? loaded.framed(body) : deferred().then((module) => module.framed(body));
}
