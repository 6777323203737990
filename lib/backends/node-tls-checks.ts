/**
 * @internal `execution.tls` checked when it is set not only for its shape (config/tls-options.ts)
 * but for whether node's TLS can use it (node-tls.ts: a PEM, key, passphrase or cipher list
 * node refuses), so a bad one is a ConfigError when the client is made, whichever backend it
 * chose (the native one is made with the client, the others at their first request). Imported
 * for its effect by node-platform.ts, after config/node-checks.ts, whose checks it extends.
 */
import { settingChecks, useNodeSettingChecks } from '../config/platform-checks.js';
import { nodeTls } from './node-tls.js';

const shaped = settingChecks();
useNodeSettingChecks({
  ...shaped,
  tls(value) {
    const checked = shaped.tls(value);
    nodeTls(checked); // throws the ConfigError, and keeps the conversion for the transports
    return checked;
  },
});
