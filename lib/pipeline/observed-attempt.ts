import type { AttemptTelemetry, Telemetry } from '../config/telemetry.js';
import { redactUrl } from '../core/redact.js';
import { unbracketed } from '../core/host-literals.js';
import { withTimings } from '../core/timed-error.js';
import type { WireRequest, WireResponse } from '../model/backend.js';
import { toTransportError } from '../model/transport-error.js';
import type { Send, WireCall } from './plan.js';
import type { AttemptMessage } from './observed.js';

// The observation stage's work (observe-stage.ts) for a call with `client.telemetry` or a
// subscriber to the `httpbuilder:` channels: loaded with the optional stages' work (stage-work.ts)
// by the first such call, so that a client with neither never loads it.

/** One attempt told of (`attempt:start`, `attempt:end`) and given its telemetry: a span current while `next` runs. */
export async function observedAttempt(next: Send, wire: WireRequest, call: WireCall): Promise<WireResponse> {
  const observed = call.observed!;
  const number = ++observed.attempts;
  const url = redactUrl(wire.url);
  const channels = observed.channels;
  const attempt: AttemptMessage = { method: wire.method, url, number };
  if (channels?.attemptStart.hasSubscribers) channels.attemptStart.publish({ call: observed.message, attempt });
  const telemetry = startTelemetry(call.plan.telemetry, wire, url, number);
  const sent = telemetry?.headers ? { ...wire, headers: { ...wire.headers, ...telemetry.headers } } : wire;
  let response: WireResponse;
  try {
    response = await (telemetry ? telemetry.run(() => next(sent, call)) : next(sent, call));
  } catch (error) {
    const typed = withTimings(toTransportError(error, wire.url), call.timings?.failed());
    const timings = typed.timings;
    telemetry?.end({ error: typed, timings });
    if (channels?.attemptEnd.hasSubscribers) channels.attemptEnd.publish({ call: observed.message, attempt, error: typed, timings });
    throw error;
  }
  const timings = call.timings?.responded();
  telemetry?.end({ statusCode: response.statusCode, httpVersion: response.httpVersion ?? '1.1', timings });
  if (channels?.attemptEnd.hasSubscribers) {
    const { statusCode, message, httpVersion = '1.1' } = response;
    channels.attemptEnd.publish({ call: observed.message, attempt, response: { statusCode, message, httpVersion }, timings });
  }
  return response;
}

function startTelemetry(telemetry: Telemetry | undefined, wire: WireRequest, url: string, number: number): AttemptTelemetry | undefined {
  if (telemetry === undefined) return undefined;
  return telemetry.startAttempt({
    method: wire.method,
    url,
    serverAddress: unbracketed(wire.hostname),
    serverPort: wire.port,
    resendCount: number - 1,
  });
}
