/**
 * The `httpbuilder:` diagnostics channels: node's `diagnostics_channel` where the runtime has it
 * (Node, Bun, Deno plug it in from node-platform.ts), none in the browser/Workers build. A
 * message is made only when a channel has subscribers.
 */

/** What the library needs of a `diagnostics_channel` channel. */
export interface Channel {
  readonly hasSubscribers: boolean;
  publish(message: unknown): void;
}

/** The five channels, named `httpbuilder:call:start`, ... */
export interface CallChannels {
  readonly callStart: Channel;
  readonly callEnd: Channel;
  readonly callError: Channel;
  readonly attemptStart: Channel;
  readonly attemptEnd: Channel;
}

let channels: CallChannels | undefined;

/** Plugs the runtime's channels in (node-platform.ts). */
export function useChannels(runtime: CallChannels): void {
  channels = runtime;
}

/** The channels when one of them has a subscriber right now; `undefined` (the usual case) costs a call nothing more. */
export function subscribedChannels(): CallChannels | undefined {
  const c = channels;
  if (c === undefined) return undefined;
  return c.callStart.hasSubscribers || c.callEnd.hasSubscribers || c.callError.hasSubscribers || c.attemptStart.hasSubscribers || c.attemptEnd.hasSubscribers
    ? c
    : undefined;
}
