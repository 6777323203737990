import { ConfigError } from '../core/errors.js';

/** Whether a block configures a client or one request. */
export type Scope = 'client' | 'request';

/** Client-level settings (pool, TLS, backend) cannot change per request. */
export function assertClientLevel(scope: Scope, setting: string): void {
  if (scope === 'request') {
    throw new ConfigError(`${setting} is a client-level setting: set it in HttpBuilder.configure(), not in a request block`);
  }
}
