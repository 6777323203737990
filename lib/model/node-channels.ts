import diagnostics from 'node:diagnostics_channel';
import { CHANNEL_NAMES, useChannels, type CallChannels } from '../core/diagnostics.js';

// node's diagnostics_channel for the `httpbuilder:` channels (core/diagnostics.ts): Node, Bun and Deno have it
const channel = (name: keyof CallChannels) => diagnostics.channel(CHANNEL_NAMES[name]);

useChannels({
  callStart: channel('callStart'),
  callEnd: channel('callEnd'),
  callError: channel('callError'),
  attemptStart: channel('attemptStart'),
  attemptEnd: channel('attemptEnd'),
});
