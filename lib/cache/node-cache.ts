// What the node platform loads, in one import, at the first request of a client with client.cache
// (pipeline/node-stages.ts): the cache stage, and the cache of a client.
export { caching } from './cache-stage.js';
export { cacheFor } from './cache-for.js';
