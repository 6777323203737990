// The machinery of a call (encode → send → read → dispatch → convert, the wire stages, the
// interceptors' chain) and of making a client (its settings merged, its pool), as the client
// loads it (call-modules.ts): on node with the library (node-calls.ts); in the browser/Workers
// build at a client's first request, so that an application pays for it when it first sends,
// not when it starts, and a browser bundle keeps it out of what loads with the application. It
// imports the pipeline's shared-chunk list, as every lazily loaded module does
// (content/shared-chunk.ts says why).
import './shared-chunk.js'; // loads with the call's modules in one chunk
export { exchange } from './call.js';
export { freezeRecord } from './freeze.js';
export { chain, checkedRecord } from './interceptors.js';
export { mergeSettings } from '../config/settings.js';
export { ClientCookieJar } from '../cookies/cookie-jar.js';
export { nodeStages } from './platform-stages.js';
export { bodyTaker, clientSettings, newPool, rootSettings, samePool, TAKES_BODY, type ClientPool } from './client-setup.js';
