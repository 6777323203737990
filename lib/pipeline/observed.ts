import type { CallChannels } from '../core/diagnostics.js';

// What the observation stage (observe-stage.ts) and the call (call.ts) share about an observed call.

/** A call as the diagnostics channels tell of it: one object for all its attempts. */
export interface CallMessage {
  readonly method: string;
  /** credentials redacted, as in logs */
  readonly url: string;
}

/** One attempt as the `httpbuilder:attempt:*` messages tell of it. */
export interface AttemptMessage {
  readonly method: string;
  /** credentials redacted */
  readonly url: string;
  /** 1 for the call's first attempt, 2 for the next (a retry, a redirect hop, an authentication round), ... */
  readonly number: number;
}

/** @internal What a call observed (diagnostics subscribers or `client.telemetry`) carries from attempt to attempt. */
export interface Observed {
  /** the channels, when they had subscribers as the call started */
  readonly channels: CallChannels | undefined;
  readonly message: CallMessage;
  attempts: number;
}
