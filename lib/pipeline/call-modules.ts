import { loadOnce } from '../core/load-once.js';

/** @internal The call's modules (call-entry.ts). */
export type CallModules = typeof import('./call-entry.js');

/**
 * @internal The call's modules, as the client takes them (http-builder.ts): in the
 * browser/Workers build, loaded by a client's first request (or its close()) and taken
 * synchronously after that; on node, given with the library ({@link giveCallModules}).
 */
export const callModules = loadOnce((): Promise<CallModules> => import('./call-entry.js'));

let withLibrary = false;

/**
 * @internal Node's (node-calls.ts, which node-platform.ts imports): the call's modules given with
 * the library, so that a client's settings are merged and checked when it is made, and its first
 * request waits for no import.
 */
export function giveCallModules(modules: CallModules): void {
  withLibrary = true;
  callModules.given(modules);
}

/**
 * @internal The call's modules when they came with the library (node), for a client to merge its
 * settings when it is made; `undefined` in the browser/Workers build, where each client merges
 * them at its first request, whether or not an earlier client's request loaded the modules.
 */
export function callModulesWithLibrary(): CallModules | undefined {
  return withLibrary ? callModules.loaded : undefined;
}
