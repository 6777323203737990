import { ConfigError } from '../errors.js';

/**
 * Refuses a property a configuration block added that is no setting of its object: a
 * misspelling (`c.request.contentTyp = ...`) would otherwise be dropped without a word. Checked
 * once the block has run rather than by sealing each object: a seal is a call into V8's
 * runtime for every object of every request, and it fails the assignment only in strict code
 * (a sloppy CommonJS script would still lose the setting in silence).
 */
export function checkKnown(config: object, known: ReadonlySet<string>, path: string): void {
  // own keys only: an enumerable property some library put on Object.prototype is no typo of the caller's
  for (const key of Object.keys(config)) {
    if (!known.has(key)) throw new ConfigError(`${path}.${key} is not a setting (misspelled?)`);
  }
}

/** The settings of a kind of configuration object: the own properties a fresh one has. */
export function settingsOf(fresh: object): ReadonlySet<string> {
  return new Set(Object.keys(fresh));
}
