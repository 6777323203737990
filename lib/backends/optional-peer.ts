import { ConfigError } from '../core/errors.js';

/**
 * Imports an optional peer dependency the first time a backend needs it. When it is not
 * installed, the error says which package to add; when it cannot be loaded where the CommonJS
 * build runs (got is an ES module only: jest without ESM support cannot `require()` it before
 * Node 24.9), the error says so and what to do instead.
 */
export async function importPeer<T>(name: 'axios' | 'got' | 'http2-wrapper' | 'undici', backend: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissingModule(error, name)) {
      throw new ConfigError(`client.backend '${backend}' needs the '${name}' package: npm install ${name}`, { cause: error });
    }
    if (isEsmRefusedByRequire(error)) {
      throw new ConfigError(
        `client.backend '${backend}' cannot load the '${name}' package here: it is an ES module, which require() cannot load ` +
          `under jest without ESM support (before Node 24.9): pick another backend, or run the tests as ESM`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** A module-not-found error (ESM's or CommonJS') for the package `name` itself, not for one it imports. */
export function isMissingModule(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && typeof message === 'string' && message.includes(`'${name}'`);
}

/** node's code for `require()` of an ES module it cannot load, which jest's module loader uses too. */
function isEsmRefusedByRequire(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ERR_REQUIRE_ESM';
}
