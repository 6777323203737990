import { ConfigError } from '../core/errors.js';

/**
 * Imports an optional peer dependency the first time a backend needs it. When it is not
 * installed, the error says which package to add.
 */
export async function importPeer<T>(name: 'axios' | 'got' | 'http2-wrapper' | 'undici', backend: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissingModule(error, name)) {
      throw new ConfigError(`client.backend '${backend}' needs the '${name}' package: npm install ${name}`, { cause: error });
    }
    throw error;
  }
}

function isMissingModule(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && typeof message === 'string' && message.includes(`'${name}'`);
}
