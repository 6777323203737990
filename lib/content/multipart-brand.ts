import type { PartContent } from './multipart-source.js';

// How a multipart body is recognised, apart from the builder (multipart.ts) that makes one: the
// encoders and the upload release check every body with it, while the builder and the framing
// load only with an application that sends multipart.

/** One part, as added: a field has no `fileName` and no `contentType`. */
export interface MultipartPart {
  readonly name: string;
  readonly fileName: string | undefined;
  readonly contentType: string | undefined;
  readonly content: PartContent;
}

/** What every multipart body (a `Multipart`) has: its parts, in the order they go out. */
export interface MultipartParts {
  readonly parts: readonly MultipartPart[];
}

/** Marks a `Multipart`; `Symbol.for`, so that one from another copy of the library counts too. */
export const MULTIPART_BRAND = Symbol.for('httpbuilder-ts.multipart');

/** Whether `value` is a body built by `multipart()` (also one from another copy of the library). */
export function isMultipart(value: unknown): value is MultipartParts {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MULTIPART_BRAND] === true;
}
