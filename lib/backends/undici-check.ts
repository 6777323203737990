import { ConfigError } from '../core/errors.js';

// Bun answers `import('undici')` with a module of its own, whatever node_modules holds: it has
// `fetch` and an `Agent` class, but no Dispatcher behind them (no `dispatch`, `compose` or
// `destroy`). The undici backends check for the real thing before using it.

/**
 * Whether `undici` is undici 7 (or later): an `Agent` class whose instances dispatch, compose
 * interceptors and can be destroyed.
 *
 * @example
 * hasDispatcher(await import('undici')); // false on Bun
 */
export function hasDispatcher(undici: unknown): boolean {
  const prototype = (undici as { Agent?: { prototype?: Record<string, unknown> } } | null)?.Agent?.prototype;
  return typeof prototype?.dispatch === 'function' && typeof prototype.compose === 'function' && typeof prototype.destroy === 'function';
}

/**
 * The error of the `'undici'` backend where `import('undici')` gives no Dispatcher: a
 * configuration the runtime cannot run, never a network failure.
 *
 * @example
 * throw undiciWithoutDispatcher('Bun');
 */
export function undiciWithoutDispatcher(runtime: string): ConfigError {
  return runtime === 'Bun'
    ? new ConfigError("client.backend 'undici' needs undici's Dispatcher, which Bun's built-in undici lacks: use 'native' or 'fetch' on Bun")
    : new ConfigError(`client.backend 'undici' needs undici 7's Dispatcher, which the 'undici' module loaded on ${runtime} lacks: npm install undici@7`);
}
