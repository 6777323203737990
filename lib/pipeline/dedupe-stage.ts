import type { WireRequest, WireResponse } from '../model/backend.js';
import { teeBody } from './body-tee.js';
import { onStopped } from './call-control.js';
import type { SharedExchange as Shared, Send, WireCall } from './plan.js';

/**
 * The dedupe stage (`client.dedupe`), outermost: a GET without a body identical to one in flight
 * (same URL, same headers, same credentials) joins it instead of going out, until the first
 * one's response head is in (unless what it sends may be decided per call: {@link perCall}); each call then reads the body through its own reader of one shared
 * read (body-tee.ts) and converts it for itself. Redirects, retries and authentication happen
 * once, for all of them.
 */
export function dedupe(next: Send): Send {
  return function sendDeduped(wire: WireRequest, call: WireCall): Promise<WireResponse> {
    const table = call.plan.pool.dedupe;
    if (table === undefined || wire.method !== 'GET' || wire.body !== undefined || perCall(call)) return next(wire, call);
    const key = keyOf(wire, call);
    const shared = table.get(key);
    if (shared) return joining(shared, call);
    const mine: Shared = { leader: call, joined: [] };
    table.set(key, mine);
    return next(wire, call).then(
      (response) => {
        table.delete(key);
        return share(response, mine);
      },
      (error: unknown) => {
        table.delete(key);
        for (const { reject } of mine.joined) reject(error);
        throw error;
      },
    );
  };
}

/** A call waiting for the response of the one it joined; stopped (its control, its pool's close()), it leaves the line. */
function joining(shared: Shared, call: WireCall): Promise<WireResponse> {
  return new Promise((resolve, reject) => {
    const entry = {
      call,
      resolve: (response: WireResponse) => (unlink(), resolve(response)),
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the leader's failure, as it is
      reject: (error: unknown) => (unlink(), reject(error)),
    };
    shared.joined.push(entry);
    const unlink = onStopped(call.control, call.plan.pool.stopped, (reason) => {
      shared.joined.splice(shared.joined.indexOf(entry), 1);
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the call's typed reason, as it is
      reject(reason);
    });
  });
}

/** The leader's response, and one for each call that joined it: the same head, a reader each of the one body. */
function share(response: WireResponse, { leader, joined }: Shared): WireResponse {
  if (joined.length === 0) return response;
  // once every reader is done: the connection goes back (read whole) or is closed (given up)
  const readers = teeBody(response.body, joined.length + 1, () => response.discard());
  const replica = (index: number): WireResponse => ({
    ...response,
    body: readers[index].body,
    readAll: undefined,
    discard: () => readers[index].close(),
  });
  joined.forEach(({ call, resolve }, index) => {
    // the response's URL is the last hop's, its timings the leader's last attempt's
    call.last = leader.last;
    call.timings = leader.timings;
    resolve(replica(index + 1));
  });
  return replica(0);
}

/**
 * Whether a call must have an exchange of its own: what it sends may be decided per call below
 * this stage, where its key cannot see it (a bearer token function serving many users,
 * `beforeAttempt` hooks: a signature, a user's header), or it has an abort signal of its own
 * (the shared exchange runs under the first caller's control: another's abort could not stop it).
 */
function perCall(call: WireCall): boolean {
  const { credentials, execution } = call.plan;
  if (execution.signal !== undefined) return true;
  return (credentials?.scheme === 'bearer' && typeof credentials.token === 'function') || (execution.hooks?.beforeAttempt.length ?? 0) > 0;
}

// one number per object (credentials, cookie jar, timeouts): calls with others never share
const ids = new WeakMap<object, number>();
let nextId = 0;

function idOf(value: object | undefined): number {
  if (value === undefined) return 0;
  let id = ids.get(value);
  if (id === undefined) ids.set(value, (id = ++nextId));
  return id;
}

/**
 * What identical calls have alike: the URL, the headers as sent from here, and what adds to them
 * or bounds them below: the credentials, the cookie jar (its `Cookie` comes later: two users'
 * jars must not share), and the timeouts (the joiners live under the first caller's).
 */
function keyOf(wire: WireRequest, call: WireCall): string {
  const { credentials, jar, execution } = call.plan;
  const headers = Object.entries(wire.headers)
    .map(([name, value]) => `${name.toLowerCase()}:${value}`)
    .sort()
    .join('\n');
  return `${idOf(credentials)} ${idOf(jar)} ${JSON.stringify(execution.timeout)}\n${wire.url}\n${headers}`;
}
