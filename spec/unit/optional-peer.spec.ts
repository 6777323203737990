import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '../../lib/index.js';
import { importPeer } from '../../lib/backends/optional-peer.js';

describe('importPeer: a missing optional package says which one to install', () => {
  it('maps node\'s "cannot find package" for that package to a ConfigError', async () => {
    // node's own error for a package that is not there: a real miss, reworded for 'axios'
    const absent: string = 'httpbuilder-ts-no-such-package';
    const miss = (await import(absent).catch((e: unknown) => e)) as Error & { code: string };
    expect(['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND']).toContain(miss.code); // node's ESM loader, or jest's resolver
    const notInstalled = Object.assign(new Error(miss.message.replace('httpbuilder-ts-no-such-package', 'axios')), { code: miss.code });
    const error = await importPeer('axios', 'axios', () => Promise.reject(notInstalled)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe("client.backend 'axios' needs the 'axios' package: npm install axios");
  });

  it('maps a require() that cannot load an ES module (got under jest without ESM support) to a ConfigError', async () => {
    // jest's own words and code when a CommonJS module require()s an ES module (jest-runtime, before Node 24.9)
    const refused = Object.assign(new Error('Must use import to load ES Module: /app/node_modules/got/dist/source/index.js'), { code: 'ERR_REQUIRE_ESM' });
    const error = await importPeer('got', 'got', () => Promise.reject(refused)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      "client.backend 'got' cannot load the 'got' package here: it is an ES module, which require() cannot load " +
        'under jest without ESM support (before Node 24.9): pick another backend, or run the tests as ESM',
    );
    expect((error as Error).cause).toBe(refused);
  });

  it('passes other failures through unchanged', async () => {
    const boom = new Error('broken install');
    await expect(importPeer('got', 'got', () => Promise.reject(boom))).rejects.toBe(boom);
  });

  it('returns the module when it is there', async () => {
    const module = await importPeer('undici', 'fetch', () => import('undici'));
    expect(typeof module.Agent).toBe('function');
  });
});
