import { isCredentialHeader } from '../core/header-redaction.js';

// Apart from cache-view.ts (node:crypto): the hook stage reaches it (hook-credentials.ts) in every build.

/** Whether each header name seen (as written) is a credential's: the names a client sends are few, and the rule takes words apart. */
const credentialNames = new Map<string, boolean>();

/**
 * Whether header `name` (`lower`: in lower case) is a credential's by the rule of log
 * redaction, read both as written and in lower case: camelCase humps make words (`XAuth` is
 * `x auth`, as a log reads it), and a lower-case name has none (`x-auth`).
 */
export function isCredential(name: string, lower = name.toLowerCase()): boolean {
  let known = credentialNames.get(name);
  if (known === undefined) {
    if (credentialNames.size >= 512) credentialNames.clear(); // names made up per request: stay bounded
    credentialNames.set(name, (known = isCredentialHeader(name, lower)));
  }
  return known;
}
