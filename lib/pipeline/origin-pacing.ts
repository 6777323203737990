import type { RateLimitOptions } from '../config/flow-options.js';

/** Turns taken between two sweeps of the origins that are over. */
const SWEEP_EVERY = 1024;

/** One attempt under `client.rateLimit`: it counts from `at`, known once it settled (`settled` pending till then). */
export interface Turn {
  at: number;
  settled: Promise<void> | undefined;
  settle(at: number): void;
}

/**
 * When the next attempt to each origin may go: the pauses servers asked for (a `429` or `503`
 * with `Retry-After`, for every call of the pool) and, with `client.rateLimit`, the turns of
 * the rate limit. One per pool, shared by the clients derived from it.
 *
 * A turn counts from when its response came (or it failed): an attempt goes only a whole
 * `interval` after the attempt `requests` turns before it, so no window of that length holds
 * more than `requests` attempts as the server sees them, whatever the transit (a new
 * connection's handshake does not squeeze two turns together); an attempt whose turn depends
 * on one still in flight waits for it. With slow answers, that is fewer than the rate.
 */
export class OriginPacing {
  /** Until when (performance.now()) each origin is paused. */
  readonly #paused = new Map<string, number>();
  /** With a rate limit: per origin, the last `requests` turns, oldest first. */
  readonly #turns: Map<string, Turn[]> | undefined;
  /** Turns taken, for {@link #sweep}. */
  #taken = 0;
  /** When the pause that ends last ends. */
  #lastPauseEnds = 0;

  constructor(readonly rateLimit: RateLimitOptions | undefined) {
    this.#turns = rateLimit && new Map();
  }

  /** Nothing to wait for (no pause going on, no rate limit): the fast path. */
  get idle(): boolean {
    if (this.#turns !== undefined) return false;
    // once the last pause is over, every one is: back to the fast path
    if (this.#paused.size > 0 && performance.now() >= this.#lastPauseEnds) this.#paused.clear();
    return this.#paused.size === 0;
  }

  /** A server asked for `ms` of quiet on `origin`: no new attempt goes there until then. */
  pause(origin: string, ms: number): void {
    const now = performance.now();
    const until = now + ms;
    if (until > (this.#paused.get(origin) ?? 0)) this.#paused.set(origin, until);
    this.#lastPauseEnds = Math.max(this.#lastPauseEnds, until);
    // pauses of origins never asked again would stay: forget the ones over once there are many
    if (this.#paused.size > SWEEP_EVERY) for (const [other, end] of this.#paused) if (end < now) this.#paused.delete(other);
  }

  /**
   * What an attempt to `origin` waits for before it may go: a time (performance.now(); at most
   * now when it may go at once) or a turn still in flight. Ask again after waiting.
   */
  wait(origin: string): number | Promise<void> {
    const now = performance.now();
    let at = now;
    const paused = this.#paused.get(origin);
    if (paused !== undefined) {
      if (paused > now) at = paused;
      else this.#paused.delete(origin);
    }
    const turns = this.#turns?.get(origin);
    if (turns === undefined || turns.length < this.rateLimit!.requests) return at;
    const first = turns[turns.length - this.rateLimit!.requests];
    return first.settled ?? Math.max(at, first.at + this.rateLimit!.interval);
  }

  /** Takes the turn of an attempt about to go to `origin` (asked once {@link wait} said it may); undefined without a rate limit. */
  take(origin: string): Turn | undefined {
    if (this.#turns === undefined) return undefined;
    let turns = this.#turns.get(origin);
    if (turns === undefined) this.#turns.set(origin, (turns = []));
    let settle!: () => void;
    const turn: Turn = {
      at: performance.now(),
      settled: new Promise((resolve) => (settle = resolve)),
      settle(at) {
        turn.at = at;
        turn.settled = undefined;
        settle();
      },
    };
    turns.push(turn);
    if (turns.length > this.rateLimit!.requests) turns.shift();
    if (++this.#taken % SWEEP_EVERY === 0) this.#sweep();
    return turn;
  }

  /** Forgets the origins whose turns and pauses are all over: a client that visits many origins keeps no state for the old ones. */
  #sweep(): void {
    const now = performance.now();
    const interval = this.rateLimit!.interval;
    for (const [origin, turns] of this.#turns!) {
      if (turns.every((turn) => turn.settled === undefined && turn.at + interval < now)) this.#turns!.delete(origin);
    }
    for (const [origin, until] of this.#paused) if (until < now) this.#paused.delete(origin);
  }
}
