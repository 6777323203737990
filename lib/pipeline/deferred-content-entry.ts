// deferred-content.ts (the XML, CSV and multipart codecs) as the pipeline loads it
// (deferred-stage.ts): an entry in this layer, so that it can import the pipeline's shared-chunk
// list (content/lazy-codecs.ts says why).
import './shared-chunk.js'; // loads with the client's modules in one chunk
export * from '../content/deferred-content.js';
