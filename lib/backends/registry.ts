import { ConfigError } from '../core/errors.js';
import type { Backend, TransportOptions } from '../model/backend.js';
import { NativeBackend } from './native.js';
import type { BackendName } from '../config/client-config.js';
import { givenBackend, useBackendChooser, WITH_TRANSPORT } from './backend-choice.js';
import { withAddressPolicy } from './address-guard.js';
import { LazyBackend, type BackendFactory } from './lazy-backend.js';

// Loaded on first use, so a client that never picks axios, got, fetch or undici never loads them.
const LOADERS: Readonly<Record<Exclude<BackendName, 'native'>, () => Promise<BackendFactory>>> = {
  axios: () => import('./axios.js').then((module) => module.createAxiosBackend),
  got: () => import('./got.js').then((module) => module.createGotBackend),
  fetch: () => import('./undici-fetch.js').then((module) => module.createNodeFetchBackend),
  undici: () => import('./undici.js').then((module) => module.createUndiciBackend),
};

/**
 * Node's backends for `client.backend`: a name (made with the client's transport settings;
 * `native` by default), or a Backend object used as it is (or, when it takes them, given those
 * settings: `WITH_TRANSPORT`). The node platform's chooser: registered when this module is
 * imported (node-platform.ts), in place of the web build's (backend-choice.ts).
 */
export function backendFor(choice: BackendName | Backend | undefined, options: TransportOptions): Backend {
  const { publicOnly } = options;
  const own = typeof choice === 'object' && choice !== null && !(WITH_TRANSPORT in choice);
  // what a built-in backend checks on each connection, a Backend object of your own would skip without a word
  if (own && options.tls?.pins) {
    throw new ConfigError(
      "execution.tls.pins needs a built-in backend (native, undici, axios, got, fetch), which checks each connection's certificate: a Backend object of your own makes its connections itself",
    );
  }
  if (publicOnly === undefined) return builtBackend(choice, options);
  if (own) {
    throw new ConfigError(
      'client.publicOnly needs a built-in backend (native, undici, axios, got, fetch), which checks each address it dials: a Backend object of your own chooses its addresses itself',
    );
  }
  return withAddressPolicy(publicOnly, { ...options, publicOnly: undefined }, (checked) => builtBackend(choice, checked));
}

function builtBackend(choice: BackendName | Backend | undefined, options: TransportOptions): Backend {
  if (options.http2 && choice === 'axios')
    throw new ConfigError("client.http2: the 'axios' backend cannot speak HTTP/2 (axios has no HTTP/2 transport): use 'native', 'undici', 'got' or 'fetch'");
  if (choice === undefined || choice === 'native') return new NativeBackend(options);
  const given = givenBackend(choice, options);
  if (given) return given;
  if (typeof choice === 'string' && Object.hasOwn(LOADERS, choice)) return new LazyBackend(choice, LOADERS[choice], options);
  throw new ConfigError(`client.backend ${JSON.stringify(choice)} is not a backend: use 'native', 'undici', 'axios', 'got', 'fetch' or a Backend object`);
}

useBackendChooser(backendFor);
