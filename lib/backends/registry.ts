import { ConfigError } from '../core/errors.js';
import type { Backend, TransportOptions } from '../model/backend.js';
import type { BackendName } from '../config/client-config.js';
import { loadOnce } from '../core/load-once.js';
import { givenBackend, useBackendChooser, WITH_TRANSPORT } from './backend-choice.js';
import { LazyBackend, type BackendFactory } from './lazy-backend.js';

// The native backend (node:http, node:https, node:tls, the proxy and SOCKS agents) and the address
// policy (ipaddr.js, node:dns) load with the first request that needs them, not with the package:
// importing the package is what every script, CLI and serverless function pays on each start. Once
// loaded, later clients are made with them synchronously (no promise between a request and them).
const native = loadOnce(() => import('./native.js'));
const addressGuard = loadOnce(() => import('./address-guard.js'));

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
  if (options.connection?.socketPath !== undefined) {
    throw new ConfigError('client.publicOnly checks the IP address each connection dials, and client.connection.socketPath dials none: set one of them');
  }
  const unguarded = { ...options, publicOnly: undefined };
  const make = (checked: TransportOptions) => builtBackend(choice, checked);
  if (addressGuard.loaded) return addressGuard.loaded.withAddressPolicy(publicOnly, unguarded, make);
  checkChoice(choice, options); // refused when the client is made, not at its first request
  const loadGuarded = () =>
    // the native backend with it: the guarded client then sends straight to it
    Promise.all([addressGuard(), choice === undefined || choice === 'native' ? native() : undefined]).then(
      ([guard]) =>
        (checked: TransportOptions) =>
          Promise.resolve(guard.withAddressPolicy(publicOnly, checked, make)),
    );
  return new LazyBackend(typeof choice === 'string' ? choice : 'native', loadGuarded, unguarded);
}

/** Throws the ConfigError of a `client.backend` that cannot be made (with these settings). */
function checkChoice(choice: BackendName | Backend | undefined, options: TransportOptions): void {
  if (options.http2 && choice === 'axios')
    throw new ConfigError("client.http2: the 'axios' backend cannot speak HTTP/2 (axios has no HTTP/2 transport): use 'native', 'undici', 'got' or 'fetch'");
  const known =
    choice === undefined ||
    (typeof choice === 'string'
      ? choice === 'native' || Object.hasOwn(LOADERS, choice)
      : typeof choice === 'object' && choice !== null && typeof choice.send === 'function');
  if (!known) throw notABackend(choice);
}

function notABackend(choice: unknown): ConfigError {
  return new ConfigError(`client.backend ${JSON.stringify(choice)} is not a backend: use 'native', 'undici', 'axios', 'got', 'fetch' or a Backend object`);
}

function builtBackend(choice: BackendName | Backend | undefined, options: TransportOptions): Backend {
  checkChoice(choice, options);
  if (choice === undefined || choice === 'native') {
    return native.loaded ? new native.loaded.NativeBackend(options) : new LazyBackend('native', loadNative, options);
  }
  if (typeof choice === 'string') return new LazyBackend(choice, LOADERS[choice], options);
  const given = givenBackend(choice, options);
  if (given === undefined) throw notABackend(choice);
  return given;
}

function loadNative(): Promise<BackendFactory> {
  return native().then(
    ({ NativeBackend }) =>
      (options) =>
        Promise.resolve(new NativeBackend(options)),
  );
}

useBackendChooser(backendFor);
