import type { ConcurrencyOptions } from '../config/flow-options.js';
import { onStopped, type CallControl } from './call-control.js';

/** A call waiting for its slot. */
interface Waiter {
  readonly origin: string;
  readonly take: () => void;
}

/**
 * `client.concurrency`: the calls in flight of a pool, in all and per origin. A call takes a
 * slot before its first attempt and gives it back once its body is read; one that finds none
 * free waits in order (FIFO: a freed slot goes to the first waiter it can serve, so a call to a
 * busy origin does not hold back one to another). A waiting call can be stopped by its
 * control (abort, total timeout) or its pool's close(), which takes it out of the line.
 *
 * @example
 * const slots = new CallSlots({ total: 2 });
 * await slots.take('https://api.example.com', control, pool.stopped);
 * try { ... } finally { slots.give('https://api.example.com'); }
 */
export class CallSlots {
  readonly #total: number;
  readonly #perOrigin: number;
  #inFlight = 0;
  readonly #byOrigin = new Map<string, number>();
  readonly #waiting: Waiter[] = [];

  constructor({ total, perOrigin }: ConcurrencyOptions) {
    this.#total = total ?? Infinity;
    this.#perOrigin = perOrigin ?? Infinity;
  }

  /**
   * Takes a slot for a call to `origin`: at once (undefined) when one is free, else a promise of
   * it, rejected with the reason if the call is stopped meanwhile (its control, its pool's close()).
   */
  take(origin: string, control: CallControl | undefined, stopped: AbortSignal): Promise<void> | undefined {
    // whoever waits is held by the total or by their own origin (give() serves the others at once)
    if (this.#free(origin)) {
      this.#count(origin, 1);
      return undefined;
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        origin,
        take: () => {
          unlink();
          this.#count(origin, 1);
          resolve();
        },
      };
      this.#waiting.push(waiter);
      const unlink = onStopped(control, stopped, (reason) => {
        const at = this.#waiting.indexOf(waiter);
        if (at >= 0) this.#waiting.splice(at, 1);
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the call's typed reason, as it is
        reject(reason);
      });
    });
  }

  /** Gives back a call's slot: the first waiters it frees room for get theirs. */
  give(origin: string): void {
    this.#count(origin, -1);
    for (let i = 0; i < this.#waiting.length && this.#inFlight < this.#total;) {
      const waiter = this.#waiting[i];
      if (!this.#free(waiter.origin)) {
        i++;
        continue;
      }
      this.#waiting.splice(i, 1);
      waiter.take();
    }
  }

  #free(origin: string): boolean {
    return this.#inFlight < this.#total && (this.#byOrigin.get(origin) ?? 0) < this.#perOrigin;
  }

  #count(origin: string, change: 1 | -1): void {
    this.#inFlight += change;
    const now = (this.#byOrigin.get(origin) ?? 0) + change;
    if (now === 0) this.#byOrigin.delete(origin);
    else this.#byOrigin.set(origin, now);
  }
}
