import type { Socket } from 'node:net';

/**
 * A socket as the clock reads it: node's public byte counters, the current request node keeps on
 * it (`_httpMessage`: a `ClientRequest` while it serves one, `null` in the pool) and the queue of
 * a write the kernel has not taken yet (node's own socket timeout counts it as activity too).
 */
type ReadSocket = Socket & { _httpMessage?: object | null; _handle?: { writeQueueSize?: number } | null };

/** What the clock saw on a socket at its last tick: anything different is activity. */
interface Seen {
  request: object | null;
  read: number;
  written: number;
  queued: number;
  /** `performance.now()` of the tick that last saw activity (at or after the activity itself). */
  at: number;
}

const SEEN = Symbol('stallClockSeen');
type Watched = ReadSocket & { [SEEN]: Seen };

/** The stall limit of `request` for the phase it is in (headers or body), in ms; 0 for none. */
export type LimitOf = (request: object) => number;
/** Ends `request`, silent for `ms`, with the error of the phase it is in. */
export type Expire = (request: object, ms: number) => void;

/**
 * One coarse clock for the stall limits (`execution.timeout.response` and `read`) of every
 * connection of the library's node agents, in the manner of undici's fast timers. node's own
 * socket timeout re-arms a timer on every read and write, and an agent's makes a new one per
 * request; here nothing is done per request or per byte: every `tickMs` one unref'd timer reads
 * the byte counters of the sockets that serve a request, and expires a request whose socket has
 * shown no activity for its limit. Activity is dated by the tick that saw it (never before it
 * happened), so a stall is never reported early and at most two ticks late: limits shorter
 * than {@link StallClock.coarseMinMs} are left to a precise timer per request.
 *
 * @example
 * const clock = new StallClock(250, limitOf, expire);
 * clock.watch(socket); // once per connection; it leaves on 'close'
 */
export class StallClock {
  readonly #sockets = new Set<Watched>();
  #timer: ReturnType<typeof setInterval> | undefined;
  readonly #tick = this.tick.bind(this);
  readonly #unwatch: (this: Socket) => void;

  constructor(
    /** Milliseconds between two readings. */
    readonly tickMs: number,
    private readonly limitOf: LimitOf,
    private readonly expire: Expire,
  ) {
    const sockets = this.#sockets;
    const stop = this.#stopIfIdle.bind(this);
    this.#unwatch = function unwatch(this: Socket) {
      sockets.delete(this as Watched);
      stop();
    };
  }

  /** The shortest limit left to the clock: below it a stall could be reported more than 50% late. */
  get coarseMinMs(): number {
    return this.tickMs * 4;
  }

  /** Whether the clock, not a timer of the request's own, enforces a limit of `ms` (0: none). */
  coarse(ms: number): boolean {
    return ms >= this.coarseMinMs;
  }

  /** Watches `socket` until it closes (or its agent gives it up, as for an upgrade). */
  watch(socket: Socket): void {
    const watched = socket as Watched;
    watched[SEEN] = { request: null, read: 0, written: 0, queued: 0, at: performance.now() };
    this.#sockets.add(watched);
    socket.once('close', this.#unwatch);
    socket.once('agentRemove', this.#unwatch);
    if (this.#timer === undefined) {
      this.#timer = setInterval(this.#tick, this.tickMs);
      this.#timer.unref();
    }
  }

  /** How many sockets are watched (the clock runs while there are any). */
  get size(): number {
    return this.#sockets.size;
  }

  /** Whether the clock's timer is running. */
  get running(): boolean {
    return this.#timer !== undefined;
  }

  /** One reading of every watched socket (the timer's; public for tests). */
  tick(): void {
    const now = performance.now();
    for (const socket of this.#sockets) {
      const seen = socket[SEEN];
      const request = socket._httpMessage ?? null;
      const read = socket.bytesRead;
      const written = socket.bytesWritten ?? 0;
      const queued = socket._handle?.writeQueueSize ?? 0;
      if (request !== seen.request || read !== seen.read || written !== seen.written || queued !== seen.queued) {
        // a new request counts from here, as does anything read or written since the last tick
        seen.request = request;
        seen.read = read;
        seen.written = written;
        seen.queued = queued;
        seen.at = now;
      } else if (request !== null) {
        const ms = this.limitOf(request);
        if (this.coarse(ms) && now - seen.at >= ms) {
          seen.at = now; // reported once; the request's end closes the socket
          this.expire(request, ms);
        }
      }
    }
  }

  #stopIfIdle(): void {
    if (this.#sockets.size > 0 || this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
