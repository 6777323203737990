// What the XML, CSV and multipart encoders and parsers of lazy-codecs.ts load at their first use:
// one module for the three, so that a browser bundle makes one chunk of them. (esbuild's
// splitting gives each set of entry points that reach a module a chunk of its own: every further
// lazily loaded module that shares code with the application splits what loads with it into
// more files, each gzipped alone.)
import './shared-chunk.js'; // loads with the client's modules in one chunk
export { encodeXml, parseXml } from './xml.js';
export { encodeCsv, parseCsv } from './csv.js';
export { framed } from './multipart-body.js';
