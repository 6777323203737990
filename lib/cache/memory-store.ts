import type { CacheEntry, CacheStore } from '../config/cache-options.js';

/**
 * The default {@link CacheStore}: entries in memory, least recently used evicted first once there
 * are more than `maxEntries` or they hold more than `maxBytes` (each entry's `size`).
 */
export class MemoryStore implements CacheStore {
  // a Map iterates in insertion order: re-inserting on use keeps the least recently used first
  readonly #entries = new Map<string, CacheEntry>();
  #bytes = 0;

  constructor(
    readonly maxEntries: number,
    readonly maxBytes: number,
  ) {}

  get(key: string): CacheEntry | undefined {
    const entry = this.#entries.get(key);
    if (entry !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: CacheEntry): void {
    this.delete(key);
    if (entry.size > this.maxBytes) return;
    this.#entries.set(key, entry);
    this.#bytes += entry.size;
    for (const [oldest, evicted] of this.#entries) {
      if (this.#entries.size <= this.maxEntries && this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= evicted.size;
    }
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= entry.size;
  }

  /** How many entries, and how many bytes they hold. */
  get usage(): { readonly entries: number; readonly bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }
}
