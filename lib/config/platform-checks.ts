import { ConfigError } from '../core/errors.js';
import { describeSetting, describeValue } from '../core/describe-value.js';
import { isRecord } from '../core/scalar.js';
import type { ConnectionOptions, PublicOnlyPolicy, TlsOptions } from '../model/backend.js';
import { defaultCacheOptions, type ResolvedCacheOptions } from './cache-options.js';
import type { PublicOnlyChoice } from './public-only.js';

/**
 * @internal How `client.connection`, `execution.tls`, `client.cache` and `client.publicOnly`, the
 * settings only node's transports and the node cache take, are checked when set. The node platform
 * plugs in the checks member by member (node-checks.ts: connection-options.ts, tls-options.ts,
 * cache-options.ts, public-only.ts); the browser/Workers build leaves those out of its bundle, as it
 * has no use for them: there any `client.cache` but `false` is refused when the client is made,
 * naming the runtime (pipeline/platform-stages.ts), and so is any `client.publicOnly` but `false`
 * (backends/backend-choice.ts: the global fetch does not show the address it dials), and any
 * `client.connection` or `execution.tls` at the first request, before anything is sent (the fetch
 * backend runs on the global fetch, which takes neither: backends/fetch-transport.ts).
 */
export interface NodeSettingChecks {
  connection(value: unknown): ConnectionOptions;
  tls(value: TlsOptions): TlsOptions;
  /** `undefined` for `false` */
  cache(value: unknown): ResolvedCacheOptions | undefined;
  /** `undefined` for `false` */
  publicOnly(value: PublicOnlyChoice): PublicOnlyPolicy | undefined;
}

let checks: NodeSettingChecks = {
  connection(value) {
    if (!isRecord(value)) throw new ConfigError(`client.connection must be an object, not ${describeSetting(value)}`);
    return Object.freeze({ ...(value as ConnectionOptions) });
  },
  tls(value) {
    if (!isRecord(value)) throw new ConfigError(`execution.tls must be an object of options, not ${describeValue(value)}`);
    return Object.freeze({ ...value });
  },
  // refused when the client is made: the options themselves do not matter then
  cache: (value) => (value === false ? undefined : defaultCacheOptions()),
  // refused when the client is made (no allow list is looked at): only `false` is none
  publicOnly: (value) => (value === false ? undefined : Object.freeze({ allowRanges: [], allowHosts: [] })),
};

/** @internal Plugs in node's checks (node-checks.ts does, on import). */
export function useNodeSettingChecks(given: NodeSettingChecks): void {
  checks = given;
}

/** @internal The checks of `client.connection`, `execution.tls`, `client.cache` and `client.publicOnly` this build has. */
export function settingChecks(): NodeSettingChecks {
  return checks;
}
