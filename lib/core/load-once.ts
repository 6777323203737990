/**
 * A module loaded at its first use, so that code most calls never run stays out of what loads
 * with the application (a browser bundle splits it into a chunk of its own). Imported once: the
 * promise is shared (jest's ESM loader can fail two imports linking the same graph at once), and
 * once the module is in, `loaded` holds it, so later calls can take it synchronously, with no
 * extra microtask. A failed import (a chunk the network lost) is tried again by the next call.
 */
export interface LoadOnce<M> {
  (): Promise<M>;
  /** the module, once loaded */
  readonly loaded: M | undefined;
  /** Takes the module as a platform that imports it statically gives it (node): `loaded` at once, no import. */
  given(module: M): void;
}

/**
 * @example
 * const cookies = loadOnce(() => import('tough-cookie'));
 * const jar = new (cookies.loaded ?? (await cookies())).CookieJar();
 */
export function loadOnce<M>(load: () => Promise<M>): LoadOnce<M> {
  let loading: Promise<M> | undefined;
  // a plain property, not a getter: read on every call of the code it loads
  const get = Object.assign((): Promise<M> => (loading ??= load().then(keep, retryLater)), { loaded: undefined as M | undefined, given });
  function keep(module: M): M {
    return (get.loaded = module);
  }
  function given(module: M): void {
    loading = Promise.resolve(keep(module));
  }
  function retryLater(error: unknown): never {
    loading = undefined;
    throw error;
  }
  return get;
}
