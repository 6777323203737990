/**
 * When each step of one attempt happened, got's shape: instants on the `performance.now()`
 * clock, and the `phases` between them in milliseconds. Made by the pipeline for each attempt
 * (a retry, a redirect hop and an authentication round are attempts of their own); the backend
 * stamps the connection's instants, the pipeline the rest.
 *
 * @example
 * const fromServer = await http.get(withResponse(), (c) => { c.request.uri.path = '/users/42'; });
 * console.log(`${fromServer.timings.phases.firstByte} ms to the first byte, ${fromServer.timings.phases.total} ms in all`);
 */
export interface Timings {
  /** The attempt was handed to the backend. */
  readonly start: number;
  /** It got a socket (a new or a reused one; `undefined` for a transport that does not say, like a runtime's global `fetch`). */
  readonly socket?: number;
  /** The host name was resolved (for an IP literal, the same instant as `socket`); new connections only. */
  readonly lookup?: number;
  /** TCP connected; new connections only. */
  readonly connect?: number;
  /** The TLS handshake was done; new https connections only. */
  readonly secureConnect?: number;
  /** The request, body included, was written. */
  readonly upload?: number;
  /** The response head arrived. */
  readonly response?: number;
  /** The response body was read to its end. */
  readonly end?: number;
  /** The attempt failed (no response, or its body could not be read to the end). */
  readonly error?: number;
  /** Durations in milliseconds; one whose instants are unknown is absent. */
  readonly phases: TimingPhases;
}

/** The phases of an attempt, in milliseconds (got's names). */
export interface TimingPhases {
  /** `socket - start`: waiting for a socket. */
  readonly wait?: number;
  /** `lookup - socket`: name resolution (0 for an IP literal). */
  readonly dns?: number;
  /** `connect - lookup`: the TCP handshake. */
  readonly tcp?: number;
  /** `secureConnect - connect`: the TLS handshake. */
  readonly tls?: number;
  /** `upload - (secureConnect ?? connect ?? socket)`: writing the request. */
  readonly request?: number;
  /** `response - upload` (from `start` when the transport does not say when it finished writing). */
  readonly firstByte?: number;
  /** `end - response`: reading the body. */
  readonly download?: number;
  /** `(end ?? error) - start`. */
  readonly total?: number;
}

/**
 * What a backend stamps on {@link WireRequest.timings} with `performance.now()` as the attempt
 * goes: each when it happens, and only for a connection it made (a reused one has `socket` only).
 *
 * @example
 * socket.once('connect', () => void (request.timings && (request.timings.connect = performance.now())));
 */
export interface TimingsRecorder {
  /** When the attempt began (the pipeline's): a connection begun before it was not made for it. */
  readonly start?: number;
  socket?: number;
  lookup?: number;
  connect?: number;
  secureConnect?: number;
  upload?: number;
  response?: number;
}

/** @internal The pipeline's {@link Timings} of one attempt: stamped as it goes, its phases worked out when asked to. */
export class AttemptTimings implements Timings, TimingsRecorder {
  readonly start: number;
  socket: number | undefined = undefined;
  lookup: number | undefined = undefined;
  connect: number | undefined = undefined;
  secureConnect: number | undefined = undefined;
  upload: number | undefined = undefined;
  response: number | undefined = undefined;
  end: number | undefined = undefined;
  error: number | undefined = undefined;

  constructor(start = performance.now()) {
    this.start = start;
  }

  /** The response head is in: stamped now unless the backend did. */
  responded(): this {
    this.response ??= performance.now();
    return this;
  }

  /** The body was read to its end. */
  ended(): this {
    this.end ??= performance.now();
    return this;
  }

  /** The attempt failed: no response, or its body broke off. */
  failed(): this {
    if (this.end === undefined) this.error ??= performance.now();
    return this;
  }

  /**
   * The phases from the instants stamped so far, worked out when read (most responses' timings
   * never are: made per request, they measured a few per cent of a native GET).
   */
  get phases(): TimingPhases {
    const { start, socket, lookup, connect, secureConnect, upload, response, end, error } = this;
    const written = secureConnect ?? connect ?? socket;
    const finished = end ?? error;
    const phases: { -readonly [P in keyof TimingPhases]?: number } = {};
    if (socket !== undefined) phases.wait = socket - start;
    if (lookup !== undefined && socket !== undefined) phases.dns = lookup - socket;
    if (connect !== undefined && lookup !== undefined) phases.tcp = connect - lookup;
    if (secureConnect !== undefined && connect !== undefined) phases.tls = secureConnect - connect;
    if (upload !== undefined && written !== undefined) phases.request = upload - written;
    if (response !== undefined) phases.firstByte = response - (upload ?? start);
    if (end !== undefined && response !== undefined) phases.download = end - response;
    if (finished !== undefined) phases.total = finished - start;
    return phases;
  }

  /** Instants and phases as plain data (what `JSON.stringify` and a logged object show), without the instants unknown. */
  toJSON(): Timings {
    const plain: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(this)) if (value !== undefined) plain[name] = value;
    return { ...(plain as unknown as Timings), phases: this.phases };
  }

  /** As {@link toJSON} for node's `util.inspect` (`console.log(fromServer.timings)`). */
  [Symbol.for('nodejs.util.inspect.custom')](): Timings {
    return this.toJSON();
  }
}
