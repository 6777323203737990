import type { AttemptTelemetry, Telemetry } from '../config/telemetry.js';
import { redactUrl } from '../core/redact.js';
import { unbracketed } from '../core/host-literals.js';
import { withTimings } from '../core/timed-error.js';
import type { WireRequest, WireResponse } from '../model/backend.js';
import { toTransportError } from '../model/transport-error.js';
import type { Send, WireCall } from './plan.js';
import type { AttemptMessage, Observed } from './observed.js';

/**
 * @internal The observation stage: with `client.telemetry` or a subscriber to the `httpbuilder:` channels,
 * each attempt is told (`attempt:start`, `attempt:end`) and gets its telemetry (a span current
 * while the hooks and the transport run, its trace context headers). Outside the hooks, so a
 * span is current in them and a signature covers the trace headers; inside the cache, so an
 * answer from it is no attempt. Without either, it passes the call on as it is.
 */
export function observing(next: Send): Send {
  return function sendObserved(wire: WireRequest, call: WireCall): Promise<WireResponse> {
    return call.observed === undefined ? next(wire, call) : observedAttempt(next, wire, call, call.observed);
  };
}

async function observedAttempt(next: Send, wire: WireRequest, call: WireCall, observed: Observed): Promise<WireResponse> {
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
