import diagnostics from 'node:diagnostics_channel';
import { useChannels, type CallChannels } from '../core/diagnostics.js';

// node's diagnostics_channel for the `httpbuilder:` channels (core/diagnostics.ts): Node, Bun and Deno have it

/** The channels' names, as subscribers use them (here, not in the core: the browser build has no channels). */
export const CHANNEL_NAMES: Readonly<Record<keyof CallChannels, string>> = Object.freeze({
  callStart: 'httpbuilder:call:start',
  callEnd: 'httpbuilder:call:end',
  callError: 'httpbuilder:call:error',
  attemptStart: 'httpbuilder:attempt:start',
  attemptEnd: 'httpbuilder:attempt:end',
});

const channel = (name: keyof CallChannels) => diagnostics.channel(CHANNEL_NAMES[name]);

useChannels({
  callStart: channel('callStart'),
  callEnd: channel('callEnd'),
  callError: channel('callError'),
  attemptStart: channel('attemptStart'),
  attemptEnd: channel('attemptEnd'),
});
