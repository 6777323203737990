// The config modules that the client or its call loads and that lazily loaded modules use too, with those of
// the layers below (content/shared-chunk.ts says why): lazily loaded modules that may import
// config import this file, so that a splitting bundler puts all of these in one chunk.
import '../content/shared-chunk.js';
import './auth-config.js';
import './client-config.js';
import './execution-options.js';
import './hooks.js';
import './http-config.js';
import './pagination.js';
