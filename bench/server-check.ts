/**
 * What the benchmark server has seen (`GET /__stats`), and the check that it served exactly the
 * requests the clients completed: proof that every request really reached it.
 *
 * @module
 */
import { once } from 'node:events';
import http from 'node:http';
import { json } from 'node:stream/consumers';

/** What the server has seen so far. */
export interface ServerStats {
  /** TCP connections accepted (the stats request's own included). */
  readonly connections: number;
  /** Requests served per route (`"GET /small.json" → n`). */
  readonly served: Readonly<Record<string, number>>;
  /** The server process's own `process.cpuUsage()` (µs), to show it did the same work for every contender. */
  readonly cpu: { readonly user: number; readonly system: number };
}

/** Asks the server for its {@link ServerStats}, over a fresh connection (so no client pool is touched). */
export async function serverStats(origin: string): Promise<ServerStats> {
  const [res] = (await once(http.get(`${origin}/__stats`, { agent: false }), 'response')) as [http.IncomingMessage];
  return (await json(res)) as ServerStats;
}

/** Requests a client started and completed on one route (warm-ups included). */
export type Tally = { attempted: number; succeeded: number };

/** The clients' tallies per route, over the whole run, checked against the server's counts at the end. */
export class ServerCheck {
  readonly #routes = new Map<string, Tally & { failed: boolean; lost: boolean }>();

  /** Adds a client's tally; `failed` when a request of it failed (it may or may not have reached the server). */
  add(route: string, tally: Tally, failed: boolean): void {
    const entry = this.#entry(route);
    entry.attempted += tally.attempted;
    entry.succeeded += tally.succeeded;
    entry.failed ||= failed || tally.attempted !== tally.succeeded;
  }

  /** A client process that died without its tally: only a lower bound is left for `route`. */
  lost(route: string): void {
    this.#entry(route).lost = true;
  }

  /** One line for the report; `ok` is false when a count disagrees. */
  verdict(served: Readonly<Record<string, number>>): { ok: boolean; text: string } {
    const notes: string[] = [];
    let ok = true;
    for (const [route, t] of this.#routes) {
      const count = served[route] ?? 0;
      const high = t.lost ? Infinity : t.failed ? t.attempted : t.succeeded;
      const fits = t.succeeded <= count && count <= high;
      ok &&= fits;
      const clients = t.failed || t.lost ? ` (clients completed ${t.succeeded} of ${t.lost ? 'an unknown number' : t.attempted} started)` : '';
      notes.push(`${route}: ${count}${fits ? '' : ' — DISAGREES'}${clients}`);
    }
    const agreement = ok ? "match the clients', warm-ups included" : "DISAGREE with the clients'";
    return { ok, text: `the server's request counts ${agreement} (${notes.join(', ')})` };
  }

  #entry(route: string) {
    let entry = this.#routes.get(route);
    if (!entry) this.#routes.set(route, (entry = { attempted: 0, succeeded: 0, failed: false, lost: false }));
    return entry;
  }
}
