/**
 * Where the XML and CSV codecs come from. They are npm packages loaded on first use (most
 * clients never touch XML or CSV), and xml2js needs Node built-ins (events, stream, timers): so
 * the core only asks this seam, and the node platform registers the loaders (`node-codecs.ts`).
 * A browser/Workers build has none: an XML or CSV body or response is then an error naming the
 * content type, unless the caller registers an encoder or parser of their own.
 * @internal
 */

/** Each loader imports its package when first called. */
export interface CodecLoaders {
  readonly xml: () => Promise<typeof import('xml2js')>;
  readonly csvStringify: () => Promise<typeof import('csv-stringify/sync')>;
  readonly csvParse: () => Promise<typeof import('csv-parse/sync')>;
}

let loaders: CodecLoaders | undefined;

/** Plugs in the codecs' loaders (the node platform does, on import). */
export function useCodecLoaders(given: CodecLoaders): void {
  loaders = given;
}

/** The loader of a codec, or `undefined` when this build has none. */
export function codecLoader<K extends keyof CodecLoaders>(name: K): CodecLoaders[K] | undefined {
  return loaders?.[name];
}

/** Why a body of `contentType` cannot be encoded or parsed here: names the codec and the way out. */
export function noCodec(codec: 'XML' | 'CSV', contentType: string | undefined, registerWith: string): string {
  return `'${contentType}' needs the ${codec} codec, which this build does not have (a browser or Workers build loads no XML or CSV library): register your own with ${registerWith}`;
}
