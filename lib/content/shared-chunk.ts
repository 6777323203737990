// The core, model, content and result modules that the client or its call loads and that lazily
// loaded modules use too, named in one place: each lazily loaded module imports this file (through
// config/shared-chunk.ts or pipeline/shared-chunk.ts when it may), so that every one of them
// reaches all of these. A bundler that splits code (esbuild, Rollup, webpack) gives each set of
// entry points that reach a module a chunk of its own: without this list, these modules would load
// as a dozen small chunks (one per combination of lazy modules that use them), each gzipped alone,
// instead of a few (docs/performance.md, "Bundle size"). Imports for that effect only: the client
// and the call's modules (pipeline/call-entry.ts, the first lazy module any client loads, which
// imports these lists too) have loaded them all before any other lazy module loads, so nothing
// more runs. A module the client or the call loads that a new lazy module imports belongs in the
// list of its layer. (No module that loads a lazy one may be listed: that would be an import cycle.)
import '../core/bytes.js';
import '../core/charset.js';
import '../core/describe-value.js';
import '../core/errors.js';
import '../core/http-date.js';
import '../core/load-once.js';
import '../core/maybe-promise.js';
import '../core/media-type.js';
import '../core/own-property.js';
import '../core/redact.js';
import '../core/runtime-name.js';
import '../core/scalar.js';
import '../core/text.js';
import '../core/timed-error.js';
import '../core/version.js';
import '../model/backend.js';
import '../model/body-stream.js';
import '../model/decompress.js';
import '../model/from-server.js';
import '../model/origin-key.js';
import '../model/response-headers.js';
import '../model/transport-error.js';
import './form-data.js';
import './multipart.js';
import './raw-upload.js';
import '../result/standard-schema.js';
import '../result/with-response.js';
