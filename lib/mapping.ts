import type { HttpConfig } from './config/http-config.js';
import { parseMediaType } from './core/media-type.js';
import { stringList } from './core/scalar.js';
import { DEFAULT_PARSERS } from './content/parsers.js';
import { ConfigError, EncodeError } from './core/errors.js';
import type { RequestRecord } from './model/request-record.js';
import { buildInstance } from './result/convert.js';
import { checkMapper, MAPPER_ID, type ClassType, type Mapper } from './result/result-type.js';

export { MAPPER_ID } from './result/result-type.js';
export type { ClassType, Mapper } from './result/result-type.js';

const JSON_TYPES = ['application/json'] as const;

/** The mapper used when none is configured: builds instances as the result types do, writes with `JSON.stringify`. */
const DEFAULT_MAPPER: Mapper = Object.freeze({
  read: (value: unknown, type: ClassType) => buildInstance(value, type),
  write(value: unknown): string {
    const json = JSON.stringify(value) as string | undefined; // a function or symbol has no JSON
    if (json === undefined) throw new EncodeError(`a ${typeof value} body has no JSON form`);
    return json;
  },
});

/** Types the built-in JSON parser already reads: `application/json` and `*\/*+json`. */
function isJsonType(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json');
}

function contentTypesOf(contentTypes: string | readonly string[]): string[] {
  const types = stringList(contentTypes, 'Mapping: the content types').map((type) => parseMediaType(type).type);
  if (types.length === 0 || types.some((type) => !/^[^\s/]+\/[^\s/]+$/.test(type))) {
    throw new ConfigError(`Mapping: content types must be 'type/subtype' values, not ${JSON.stringify(contentTypes)}`);
  }
  return types;
}

function mapperFor(request: RequestRecord): Mapper {
  const type = request.contentType === undefined ? undefined : parseMediaType(request.contentType).type;
  return (type === undefined ? undefined : (request.context(type, MAPPER_ID) as Mapper | undefined)) ?? DEFAULT_MAPPER;
}

/**
 * The mapping module (`httpbuilder-ts/mapping`): JSON-like responses become instances of the
 * result type through a mapper, and request bodies of those types are written by it.
 *
 * @example
 * import { Mapping } from 'httpbuilder-ts/mapping';
 * const http = HttpBuilder.configure((c) => { c.request.uri = 'https://api.example.com'; Mapping.use(c); });
 * const user = await http.get(User, (c) => { c.request.uri.path = '/users/1'; }); // instanceof User
 */
export const Mapping = Object.freeze({
  /** The context id of a content type's mapper: `c.context(contentType, Mapping.MAPPER_ID, mapper)`. */
  MAPPER_ID,

  /** The mapper used when none is configured (instances as the result types build them; `JSON.stringify`). */
  defaultMapper: DEFAULT_MAPPER,

  /**
   * Turns mapping on for these content types (default `application/json`): responses of them
   * are parsed as JSON (a parser is registered for types the built-in JSON parser does not
   * cover) and become instances of the result type through the configured mapper (the default
   * one when none is), and request bodies of them other than strings and raw uploads are
   * written with the mapper's `write`.
   *
   * @example
   * Mapping.use(c, ['application/json', 'application/vnd.acme+json']);
   */
  use(config: HttpConfig, contentTypes: string | readonly string[] = JSON_TYPES): void {
    const types = contentTypesOf(contentTypes);
    const parseJson = DEFAULT_PARSERS.get('application/json')!;
    const foreign = types.filter((type) => !isJsonType(type));
    if (foreign.length > 0) config.response.parser(foreign, parseJson);
    config.request.encoder(types, (body, request) => (typeof body === 'string' ? body : mapperFor(request).write(body)));
  },

  /**
   * Supplies the mapper for these content types (default `application/json`); the same as
   * `c.context(contentType, Mapping.MAPPER_ID, mapper)` for each of them.
   *
   * @example
   * Mapping.mapper(c, { read: (value, Type) => new (Type as typeof User)(value), write: JSON.stringify });
   */
  mapper(config: HttpConfig, mapper: Mapper, contentTypes: string | readonly string[] = JSON_TYPES): void {
    checkMapper(mapper, 'Mapping.mapper()');
    config.context(contentTypesOf(contentTypes), MAPPER_ID, mapper);
  },
});
