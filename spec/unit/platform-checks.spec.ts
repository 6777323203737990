import { describe, expect, it } from '@jest/globals';
import { HttpBuilder, type ConfigBlock } from '../../lib/browser.js';
import { ConfigError } from '../../lib/core/errors.js';
import { settingChecks } from '../../lib/config/platform-checks.js';
import { useTestServer } from '../support/use-test-server.js';

// The browser/Workers build checks `client.connection`, `execution.tls`, `client.cache` and
// `client.publicOnly` less when they are set (their option-by-option checks stay out of its
// bundle), and still refuses them before anything is sent. This file imports the browser entry only, so the node platform's
// checks (config/node-checks.ts) are not plugged in until the last test plugs them in itself.

/** What `run` throws or rejects with, which must be a ConfigError. */
async function configError(run: () => unknown): Promise<ConfigError> {
  const thrown: unknown = await Promise.resolve()
    .then(run)
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  expect(thrown).toBeInstanceOf(ConfigError);
  return thrown as ConfigError;
}

describe('the settings only node takes, in the browser/Workers build', () => {
  const served = useTestServer();

  it('client.connection and execution.tls must be objects when set, and are ConfigErrors at the first request, which is not sent', async () => {
    expect((await configError(() => HttpBuilder.configure((c) => void (c.client.connection = 6 as never)))).message).toBe(
      'client.connection must be an object, not 6',
    );
    expect((await configError(() => HttpBuilder.configure((c) => void (c.execution.tls = 'pem' as never)))).message).toBe(
      'execution.tls must be an object of options, not a string',
    );
    const cases: Array<[setting: string, block: ConfigBlock]> = [
      ['client.connection', (c) => void (c.client.connection = { maxSockets: 0 })],
      ['execution.tls', (c) => void (c.execution.tls = { rejectUnauthorized: 'no' as never })],
    ];
    for (const [setting, block] of cases) {
      const http = HttpBuilder.configure((c) => {
        c.request.uri = served.server.url(false);
        void block.call(c, c);
      });
      // the member is not checked here: the global fetch takes no such setting at all
      expect((await configError(() => http.get())).message).toMatch(new RegExp(`^${setting.replace('.', '\\.')}: the fetch backend`));
      await http.close();
    }
    expect(served.server.requests).toEqual([]);
  });

  it('client.cache: false is none; any other value is refused at the first request (where this build merges settings), naming the runtime', async () => {
    expect(settingChecks().cache(false)).toBeUndefined();
    const http = HttpBuilder.configure((c) => void (c.client.cache = false));
    await http.close();
    for (const value of [true, { maxEntries: 0 }, 'yes']) {
      const refused = HttpBuilder.configure((c) => {
        c.request.uri = served.server.url(false);
        c.client.cache = value as never;
      });
      expect((await configError(() => refused.get())).message).toMatch(/^client\.cache needs node:crypto/);
    }
    expect(served.server.requests).toEqual([]);
    // two clients' caches are never one: each setting resolves to an object of its own
    expect(settingChecks().cache(true)).not.toBe(settingChecks().cache(true));
  });

  it('client.publicOnly: false is none; any other value is refused at the first request (where this build merges settings), its allow list unread', async () => {
    expect(settingChecks().publicOnly(false)).toBeUndefined();
    const http = HttpBuilder.configure((c) => void (c.client.publicOnly = false));
    await http.close();
    for (const value of [true, { allow: ['10.0.0.0/8'] }, { allow: ['not a host!'] }]) {
      const refused = HttpBuilder.configure((c) => {
        c.request.uri = served.server.url(false);
        c.client.publicOnly = value;
      });
      expect((await configError(() => refused.get())).message).toMatch(/^client\.publicOnly needs to check the address each connection dials, which /);
    }
    expect(served.server.requests).toEqual([]);
  });

  it('the node platform plugs in the checks option by option', async () => {
    await import('../../lib/config/node-checks.js');
    expect(() => settingChecks().connection({ maxSockets: 0 })).toThrow('client.connection.maxSockets must be a whole number of at least 1');
    expect(() => settingChecks().tls({ rejectUnauthorized: 'no' as never })).toThrow('execution.tls.rejectUnauthorized must be true or false');
    expect(() => settingChecks().cache({ maxEntries: 0 })).toThrow('client.cache.maxEntries must be a whole number of at least 1');
    expect(settingChecks().cache(true)).not.toBe(settingChecks().cache(true));
    expect(() => settingChecks().publicOnly({ allow: ['not a host!'] })).toThrow("client.publicOnly.allow: 'not a host!' is no IP address");
  });
});
