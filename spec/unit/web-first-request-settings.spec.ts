import { describe, expect, it } from '@jest/globals';
import { HttpBuilder, type Backend, type ConfigBlock } from '../../lib/browser.js';
import { ConfigError } from '../../lib/core/errors.js';

// The browser/Workers build merges a client's settings at its first request, when the call's
// modules load (pipeline/call-modules.ts): what is checked as levels merge is a ConfigError from
// that request, before anything is sent, where node raises it from configure(). This file imports
// the browser entry only, so the node platform (which gives the call's modules with the library)
// is not plugged in.

/** A backend that counts what reaches it: nothing must. */
function counting(): Backend & { sent: number } {
  return {
    name: 'counting',
    sent: 0,
    send() {
      this.sent++;
      return Promise.reject(new Error('sent'));
    },
    close: () => Promise.resolve(),
  };
}

/** Settings checked when levels merge, each with the message of its ConfigError. */
const MERGE_CHECKED: Array<[block: ConfigBlock, message: string]> = [
  [(c) => void (c.request.headers = 'x' as never), 'request.headers must be a plain object of { name: value }, not a string'],
  [(c) => void (c.request.uri.query = 5 as never), 'uri.query must be a plain object of { name: value | value[] }, not a number'],
  [(c) => void (c.execution.timeout = -5 as never), 'execution.timeout must be an object of options, not a number'],
];

describe('the browser/Workers build: settings merged at a client’s first request', () => {
  it('a bad setting is a ConfigError from the first request, not from configure(), and nothing is sent', async () => {
    for (const [block, message] of MERGE_CHECKED) {
      const backend = counting();
      const http = HttpBuilder.configure((c) => {
        c.request.uri = 'http://127.0.0.1:9/';
        c.client.backend = backend;
        void block.call(c, c);
      });
      const first = http.get();
      await expect(first).rejects.toBeInstanceOf(ConfigError);
      await expect(first).rejects.toThrow(message);
      // every later request too: the settings stay unmerged
      await expect(http.post()).rejects.toThrow(message);
      expect(backend.sent).toBe(0);
      await http.close(); // no pool was made: nothing to release
    }
  });

  it('so does a derived client’s, made after the modules are in: each client merges at its own first request', async () => {
    const backend = counting();
    const parent = HttpBuilder.configure((c) => {
      c.request.uri = 'http://127.0.0.1:9/';
      c.client.backend = backend;
    });
    await expect(parent.get()).rejects.toThrow('sent'); // loads the call's modules: the request reaches the backend
    const derived = parent.configure((c) => void (c.request.headers = 'x' as never));
    await expect(derived.get()).rejects.toThrow('request.headers must be a plain object');
    expect(backend.sent).toBe(1);
    await parent.close();
  });

  it('a derived client closed before any request shares its parent’s pool, which close() of the parent closes', async () => {
    const backend = counting();
    const parent = HttpBuilder.configure((c) => {
      c.request.uri = 'http://127.0.0.1:9/';
      c.client.backend = backend;
    });
    const derived = parent.configure((c) => void (c.request.uri.path = '/v2'));
    await derived.close(); // shares the pool: releases nothing
    await expect(derived.get()).rejects.toThrow('sent');
    await parent.close();
    await expect(derived.get()).rejects.toThrow(/closed/);
    expect(backend.sent).toBe(1);
  });
});
