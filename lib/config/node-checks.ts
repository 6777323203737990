/**
 * @internal `client.connection`, `execution.tls`, `client.cache` and `client.publicOnly` checked
 * member by member when set, as the node platform has them (platform-checks.ts's web defaults
 * leave the checks out of a browser bundle). Imported for its effect by node-platform.ts.
 */
import { checkConnection } from './connection-options.js';
import { resolveCacheChoice } from './cache-options.js';
import { checkTls } from './tls-options.js';
import { resolvePublicOnly } from './public-only.js';
import { useNodeSettingChecks } from './platform-checks.js';

useNodeSettingChecks({ connection: checkConnection, tls: checkTls, cache: resolveCacheChoice, publicOnly: resolvePublicOnly });
