/**
 * The client side of `spec/conformance/http2-push.spec.ts`, in a process of its own: an
 * unhandled 'error' event from a pushed stream ends the process with exit code 1, which a jest
 * worker must not do. Run as `node --import tsx spec/support/push-client.ts '<job JSON>'` (a
 * {@link PushClientJob}); prints one line of JSON per call (a {@link PushCallOutcome}), then
 * exits with 0 once every call settled and the client's events had time to fire.
 *
 * @module
 */
import { HttpBuilder, type BackendChoice } from '../../lib/index.js';

/** What the client does once its call settled. */
export type AfterCall =
  /** waits (the server's GOAWAY arrives meanwhile), then closes the client */
  | 'wait'
  /** closes the client at once, with whatever streams the server opened still open */
  | 'close'
  /** waits and leaves the client open until the process exits: resets the server counts were sent by a live client */
  | 'keep';

export interface PushClientJob {
  readonly backend: Extract<BackendChoice, string>;
  /** The servers' certificate (PEM), trusted as `ca`. */
  readonly ca: string;
  readonly calls: ReadonlyArray<{ readonly name: string; readonly url: string; readonly then: AfterCall }>;
}

export interface PushCallOutcome {
  readonly name: string;
  readonly settled: 'resolved' | 'rejected';
  readonly value?: unknown;
  readonly error?: { readonly name: string; readonly code?: string; readonly message: string };
}

/** Long enough for frames already sent (a GOAWAY 20 ms after the answer) to arrive and their events to fire. */
const SETTLE_MS = 200;
/** Long enough for the events of a closed client (an 'error' emitted on the next tick) to fire. */
const CLOSED_MS = 50;

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? 'null') as PushClientJob;
  for (const call of job.calls) {
    const http = HttpBuilder.configure((c) => {
      c.request.uri = call.url;
      c.client.backend = job.backend;
      c.client.http2 = true;
      c.execution.tls = { ca: job.ca };
      c.execution.timeout = { response: 5000 };
    });
    let outcome: PushCallOutcome;
    try {
      outcome = { name: call.name, settled: 'resolved', value: await http.get() };
    } catch (error) {
      const { name, message, code } = error as Error & { code?: string };
      outcome = { name: call.name, settled: 'rejected', error: { name, code, message } };
    }
    if (call.then !== 'close') await settle(SETTLE_MS);
    if (call.then !== 'keep') {
      await http.close();
      await settle(CLOSED_MS);
    }
    process.stdout.write(`${JSON.stringify(outcome)}\n`);
  }
  process.exit(0);
}

await main();
