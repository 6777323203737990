import { untilSignal } from '../pipeline/call-control.js';

/** How many tokens' refreshes a client remembers: a service with many users must not grow it forever. */
const MAX_TOKENS = 1024;

/**
 * What the requests of a client know about bearer refreshes, whichever `refresh` function
 * they were configured with (one written inline in a request block is a new one per call):
 * which token each refresh replaced, and the refreshes running now, keyed by the expired token
 * (a token is its user's). A refreshed token replaces only the token it refreshed, so requests
 * made for different users (each with its own token) never send one another's; concurrent 401s
 * to the same token share one refresh. A request waits for
 * a refresh until its signal aborts; when every request that could give up on a refresh has,
 * the next 401 to that token starts another (a refresh that hangs locks nobody out for good).
 *
 * @example
 * const refreshes = new BearerRefreshes();
 * const sent = refreshes.current('a-1'); // 'a-1', or what refreshing 'a-1' gave
 * // `sent` got a 401: the token a refresh gave it since, or a new refresh's (one per expired token)
 * const fresh = await refreshes.renew('a-1', sent, () => sessions.renew(sent), call.control?.signal);
 */
export class BearerRefreshes {
  /** Token → what its latest refresh gave, least recently used first. */
  readonly #replaced = new Map<string, string>();
  /** Expired token → the refresh running for it. */
  readonly #running = new Map<string, Running>();

  /** The token to send for a request configured with `configured`: what its latest refresh gave, or itself. */
  current(configured: string): string {
    const replacement = this.#replaced.get(configured);
    if (replacement === undefined) return configured;
    this.#replaced.delete(configured); // re-inserted last: a token in use is the last to be forgotten
    this.#replaced.set(configured, replacement);
    return replacement;
  }

  /**
   * A new token for a request configured with `configured` whose `sent` token got a 401: the
   * one a refresh gave since it went out, or the one the refresh of `sent` that is running (or
   * that `refresh` starts) gives. When `signal` aborts first, it rejects with the signal's reason.
   */
  async renew(configured: string, sent: string, refresh: () => Promise<string>, signal?: AbortSignal): Promise<string> {
    let running = this.#running.get(sent);
    if (running === undefined) {
      const latest = this.current(configured);
      // refreshed since it went out; `configured` itself when what was sent was forgotten meanwhile: that one expired long ago
      if (latest !== sent && latest !== configured) return latest;
      running = this.#start(sent, refresh);
    }
    const fresh = signal ? await this.#waitFor(sent, running, signal) : await running.token;
    this.#remember(configured, fresh);
    return fresh;
  }

  #start(expired: string, refresh: () => Promise<string>): Running {
    const before = this.#replaced.get(expired);
    const token = refresh()
      .then((fresh) => {
        // one every waiter gave up on still counts when it ends, unless a later refresh of that token gave one first
        if (this.#replaced.get(expired) === before) this.#remember(expired, fresh);
        return fresh;
      })
      .finally(() => this.#drop(expired, running)); // a refresh that failed is tried again by the next 401
    const running: Running = { token, waiters: 0 };
    this.#running.set(expired, running);
    return running;
  }

  /** `running`'s token, or the signal's reason as soon as it aborts; the last waiter to give up drops the refresh. */
  async #waitFor(expired: string, running: Running, signal: AbortSignal): Promise<string> {
    running.waiters++;
    try {
      return await untilSignal(running.token, signal, () => signal.reason);
    } catch (error) {
      if (--running.waiters === 0 && signal.aborted) this.#drop(expired, running);
      throw error;
    }
  }

  /** Forgets `running` when it is still the refresh of `expired` (a later one may have taken its place). */
  #drop(expired: string, running: Running): void {
    if (this.#running.get(expired) === running) this.#running.delete(expired);
  }

  #remember(token: string, fresh: string): void {
    this.#replaced.delete(token); // re-inserted last: the least recently used is the first to go
    if (token === fresh) return; // refreshed into itself: nothing replaces it (any longer)
    this.#replaced.set(token, fresh);
    if (this.#replaced.size > MAX_TOKENS) this.#replaced.delete(this.#replaced.keys().next().value!);
  }
}

/**
 * A refresh in progress, and how many of the requests waiting for it can give up (those with a
 * timeout or signal; one without waits as long as the refresh takes, and holds it for nobody).
 */
interface Running {
  readonly token: Promise<string>;
  waiters: number;
}
