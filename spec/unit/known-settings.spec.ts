import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '../../lib/core/errors.js';
import { checkKnown, settingsOf } from '../../lib/config/known-settings.js';

class Sample {
  path: string | undefined;
  host: string | undefined;
  port = 0;
}
const KNOWN = settingsOf(new Sample());

describe('checkKnown', () => {
  it('passes a fresh object, one with a setting deleted, and one with a setting deleted and set again (its names out of order)', () => {
    expect(() => checkKnown(new Sample(), KNOWN, 'c')).not.toThrow();
    const deleted = new Sample() as Partial<Sample>;
    delete deleted.host;
    expect(() => checkKnown(deleted, KNOWN, 'c')).not.toThrow();
    const reordered = new Sample();
    delete (reordered as Partial<Sample>).path;
    reordered.path = '/x';
    expect(() => checkKnown(reordered, KNOWN, 'c')).not.toThrow();
  });

  it('names a property that is no setting: added, or in place of a deleted one', () => {
    const added = Object.assign(new Sample(), { paht: '/x' });
    expect(() => checkKnown(added, KNOWN, 'c.uri')).toThrow(new ConfigError('c.uri.paht is not a setting (misspelled?)'));
    const swapped = new Sample() as unknown as Record<string, unknown>;
    delete swapped.port;
    swapped.prot = 8080;
    expect(() => checkKnown(swapped, KNOWN, 'c.uri')).toThrow(new ConfigError('c.uri.prot is not a setting (misspelled?)'));
  });

  it('does not blame the caller for an enumerable property someone put on Object.prototype', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.polluted = true;
    try {
      expect(() => checkKnown(new Sample(), KNOWN, 'c')).not.toThrow();
    } finally {
      delete proto.polluted;
    }
  });
});
