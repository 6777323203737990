import { ConfigError } from '../core/errors.js';

/**
 * Refuses a property a configuration block added that is no setting of its object: a
 * misspelling (`c.request.contentTyp = ...`) would otherwise be dropped without a word. Checked
 * once the block has run rather than by sealing each object: a seal is a call into V8's
 * runtime for every object of every request, and it fails the assignment only in strict code
 * (a sloppy CommonJS script would still lose the setting in silence).
 */
export function checkKnown(config: object, names: readonly string[], path: string): void {
  // A block that added nothing leaves the names of a fresh object in their order: compared one
  // by one (interned strings, no lookup, no array), as this runs for every object of every call.
  // Anything else (an added name, a deleted one, an enumerable name someone put on
  // Object.prototype) takes the full check, which names the culprit or finds none.
  let index = 0;
  for (const name in config) {
    if (name !== names[index++]) return checkEach(config, names, path);
  }
  if (index !== names.length) checkEach(config, names, path);
}

function checkEach(config: object, names: readonly string[], path: string): void {
  // own keys only: an enumerable property some library put on Object.prototype is no typo of the caller's
  for (const key of Object.keys(config)) {
    if (!names.includes(key)) throw new ConfigError(`${path}.${key} is not a setting (misspelled?)`);
  }
}

/** The settings of a kind of configuration object: the own properties a fresh one has, in their order. */
export function settingsOf(fresh: object): readonly string[] {
  return Object.keys(fresh);
}
