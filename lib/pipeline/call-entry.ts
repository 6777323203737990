// The machinery of a call (encode → send → read → dispatch → convert, the wire stages, the
// interceptors' chain, the pool's flow control) as the client loads it, at its first request (http-builder.ts): an
// application pays for it when it first sends, not when it starts, and a browser bundle keeps it
// out of what loads with the application. It imports the pipeline's shared-chunk list, as every
// lazily loaded module does (content/shared-chunk.ts says why).
import './shared-chunk.js'; // loads with the call's modules in one chunk
export { exchange } from './call.js';
export { CallSlots } from './call-slots.js';
export { OriginPacing } from './origin-pacing.js';
export { freezeRecord } from './freeze.js';
export { chain, checkedRecord } from './interceptors.js';
export { wirePipeline } from './stages.js';
