// The pipeline modules that the client or its call loads and that lazily loaded modules use too, with those
// of the layers below (content/shared-chunk.ts says why): lazily loaded modules that may import
// the pipeline import this file, so that a splitting bundler puts all of these in one chunk.
import '../config/shared-chunk.js';
import './build-url.js';
import './call-control.js';
import './check-headers.js';
import './progress.js';
import './redirect-location.js';
import './retry-after.js';
