import type { BackendName } from '../config/client-config.js';
import { ConfigError } from '../core/errors.js';
import { webRuntimeName } from '../core/runtime-name.js';
import type { Backend, TransportOptions } from '../model/backend.js';
import { LazyBackend } from './lazy-backend.js';

/**
 * @internal A Backend object's method that takes the client's transport settings: the client
 * calls it and uses the backend it returns, so a wrapper (the recorder of `MockBackend.record`)
 * sends as the client would without it. `Symbol.for`: one key for the ESM and CommonJS copies.
 */
export const WITH_TRANSPORT: unique symbol = Symbol.for('httpbuilder-ts.withTransport');

/** @internal A Backend object that takes the client's transport settings (see {@link WITH_TRANSPORT}). */
export interface TransportAware extends Backend {
  [WITH_TRANSPORT](options: TransportOptions): Backend;
}

/** @internal What makes the backend of `client.backend`: a name, a Backend object, or undefined for the default. */
export type BackendChooser = (choice: BackendName | Backend | undefined, options: TransportOptions) => Backend;

/** The node platform's chooser (backends/registry.ts); until it registers, the web one. */
let chooser: BackendChooser = webBackendFor;

/**
 * @internal Plugs in the platform's backends: the node platform registers its registry (native
 * by default, and axios, got, undici, fetch loaded on first use) when registry.ts is imported.
 */
export function useBackendChooser(given: BackendChooser): void {
  chooser = given;
}

/** @internal The backend for `client.backend`, made with the client's transport settings, by the platform's chooser. */
export function chosenBackend(choice: BackendName | Backend | undefined, options: TransportOptions): Backend {
  return chooser(choice, options);
}

/**
 * @internal A Backend object of the caller's, used as it is (or, when it takes them, given the
 * transport settings: {@link WITH_TRANSPORT}); `undefined` when `choice` is no Backend object.
 */
export function givenBackend(choice: unknown, options: TransportOptions): Backend | undefined {
  if (typeof choice !== 'object' || choice === null || typeof (choice as Backend).send !== 'function') return undefined;
  return WITH_TRANSPORT in choice ? (choice as TransportAware)[WITH_TRANSPORT](options) : (choice as Backend);
}

/** What each node backend needs that a browser or a Worker does not have. */
const NODE_BACKENDS: Readonly<Record<Exclude<BackendName, 'fetch'>, string>> = {
  native: 'node:http',
  undici: 'node:net (undici runs on Node)',
  axios: "node:http (axios's Node adapter)",
  got: 'node:http (got runs on Node)',
};

const loadFetch = () => import('./fetch.js').then((module) => (options: TransportOptions) => module.createFetchBackend(options));

/**
 * @internal The browser/Workers build's backends: `'fetch'` (the default, on the global
 * `fetch`, loaded on the first request) or a Backend object. A node backend's requests reject
 * with a ConfigError naming the runtime and what it lacks (at the first request, as a node
 * backend whose package is not installed does on Node); a name that is no backend at all
 * throws when the client is made.
 */
export function webBackendFor(choice: BackendName | Backend | undefined, options: TransportOptions): Backend {
  if (options.publicOnly) throw new ConfigError(`client.publicOnly needs to check the address each connection dials, which ${webRuntimeName()} does not show`);
  const given = givenBackend(choice, options);
  if (given) return given;
  if (choice === undefined || choice === 'fetch') return new LazyBackend('fetch', loadFetch, options);
  if (typeof choice === 'string' && Object.hasOwn(NODE_BACKENDS, choice)) {
    const needs = NODE_BACKENDS[choice];
    return new UnavailableBackend(
      choice,
      `client.backend '${choice}' needs ${needs}, which ${webRuntimeName()} does not have: use 'fetch' or a Backend object`,
    );
  }
  throw new ConfigError(`client.backend ${JSON.stringify(choice)} is not a backend: use 'fetch' or a Backend object`);
}

/** A node backend in the browser/Workers build: each request rejects with why it cannot be sent. */
class UnavailableBackend implements Backend {
  constructor(
    readonly name: string,
    private readonly why: string,
  ) {}

  send(): Promise<never> {
    return Promise.reject(new ConfigError(this.why));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
