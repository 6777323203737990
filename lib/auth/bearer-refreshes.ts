/** How many tokens' refreshes a client remembers per refresh function: a service with many users must not grow it forever. */
const MAX_TOKENS = 1024;

/**
 * What the requests of a client that share one bearer `refresh` function know about it: which
 * token each refresh replaced, and the refreshes running now. A refreshed token replaces only
 * the token it refreshed, so requests made for different users (each with its own token) never
 * send one another's; concurrent 401s to the same token share one refresh.
 *
 * @example
 * const refreshes = new BearerRefreshes();
 * const sent = refreshes.current('a-1'); // 'a-1', or what refreshing 'a-1' gave
 * const fresh = await refreshes.renew('a-1', sent, () => refresh(sent));
 */
export class BearerRefreshes {
  /** Token → what its latest refresh gave, oldest first. */
  readonly #replaced = new Map<string, string>();
  /** Expired token → the refresh running for it. */
  readonly #running = new Map<string, Promise<string>>();

  /** The token to send for a request configured with `configured`: what its latest refresh gave, or itself. */
  current(configured: string): string {
    return this.#replaced.get(configured) ?? configured;
  }

  /**
   * A new token for a request configured with `configured` whose `sent` token got a 401: the
   * one a refresh gave since it went out, or the one the refresh of `sent` that is running (or
   * that `refresh` starts) gives.
   */
  async renew(configured: string, sent: string, refresh: () => Promise<string>): Promise<string> {
    let running = this.#running.get(sent);
    if (running === undefined) {
      const latest = this.current(configured);
      if (latest !== sent) return latest;
      running = this.#start(sent, refresh);
    }
    const fresh = await running;
    this.#remember(configured, fresh);
    return fresh;
  }

  #start(expired: string, refresh: () => Promise<string>): Promise<string> {
    const running = refresh()
      .then((fresh) => {
        this.#remember(expired, fresh);
        return fresh;
      })
      .finally(() => this.#running.delete(expired)); // a refresh that failed is tried again by the next 401
    this.#running.set(expired, running);
    return running;
  }

  #remember(token: string, fresh: string): void {
    if (token === fresh) return;
    this.#replaced.delete(token); // re-inserted last: the oldest is the first to go
    this.#replaced.set(token, fresh);
    if (this.#replaced.size > MAX_TOKENS) this.#replaced.delete(this.#replaced.keys().next().value!);
  }
}
