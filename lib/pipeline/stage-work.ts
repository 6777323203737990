// What the optional wire stages do for a call that has their option, loaded at the first such
// call (deferred-stage.ts): the hooks (`execution.hooks`), the log lines (`execution.logger`),
// the cookie jar (`client.cookies`), telemetry and the diagnostics channels (observed-attempt.ts),
// the hops of a redirect to follow (redirect-hops.ts) and the retries of a call with a retry
// policy, or of a failed one (retry-loop.ts).
// One module for them all, so that a browser bundle makes one chunk of them: esbuild's splitting
// gives each set of entry points that reach a module a chunk of its own, so every further lazily
// loaded module that shares code with the application splits what loads with it into more files,
// each gzipped alone.
import './shared-chunk.js'; // loads with the client's modules in one chunk
export { hooked, beforeRetry } from './hooked-attempt.js';
export { hopOn } from './redirect-hops.js';
export { retryLoop } from './retry-loop.js';
export { logged } from './logged-exchange.js';
export { observedAttempt } from './observed-attempt.js';
export { exchangeCookies } from '../cookies/cookie-exchange.js';
