/**
 * The benchmark in this process: starts the server in its own process, opens every contender,
 * runs each scenario (`rounds.ts`) and builds the report. A contender that fails is reported as
 * failed and the others carry on.
 *
 * @module
 */
import os from 'node:os';
import type { Contender, Session } from './contender.js';
import { describeError, type Failure } from './failure.js';
import type { BenchOptions } from './options.js';
import { pinSelf, affinityOf } from './pinning.js';
import type { BenchReport } from './report.js';
import { runScenario, withTimeout, type ScenarioOutcome } from './rounds.js';
import { selectScenarios, type Scenario } from './scenarios.js';
import { serverStats, startServer } from './server-process.js';

/** Runs every scenario for `contenders` here; the report's `durationSeconds` counts from `started` (`performance.now()`). */
export async function runInProcess(contenders: readonly Contender[], options: BenchOptions, started: number): Promise<BenchReport> {
  const pin = pinSelf();
  const server = await startServer();
  const clientPinning = `${pin.status} (affinity now ${affinityOf(process.pid)})`;
  const serverPinning = server.pinned ? `server pid ${server.pid} started under taskset, affinity ${server.affinity}` : 'server not pinned';
  console.log(`client: ${clientPinning}\nserver: ${serverPinning}, ${server.origin}`);
  console.log(`contenders: ${contenders.map((c) => c.name).join(', ')}`);
  let sessions = new Map<Contender, Session>();
  try {
    const opened = await openAll(contenders, server.origin);
    sessions = opened.sessions;
    const scenarios = selectScenarios(options.scenarios);
    const outcomes: ScenarioOutcome[] = [];
    for (const scenario of scenarios) outcomes.push(await runScenario(scenario, contenders, sessions, opened.failures, server.origin, options));
    const serverCheck = await checkServer(server.origin, scenarios, outcomes);
    return {
      date: new Date().toISOString(),
      node: process.version,
      cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
      cpuCount: os.cpus().length, // not availableParallelism(): pinning narrows that to 1
      platform: `${process.platform}-${process.arch}`,
      pinning: { client: clientPinning, server: serverPinning },
      options,
      scenarios: outcomes.map((o) => o.report),
      clientMaxRssBytes: process.resourceUsage().maxRSS * 1024,
      serverCheck,
      durationSeconds: (performance.now() - started) / 1000,
    };
  } finally {
    // a failed backend may hang on close too: give up on it after a while
    await Promise.allSettled([...sessions.values()].map((s) => withTimeout(s.close(), 10_000)));
    await server.stop();
  }
}

async function openAll(contenders: readonly Contender[], origin: string): Promise<{ sessions: Map<Contender, Session>; failures: Map<Contender, Failure> }> {
  const sessions = new Map<Contender, Session>();
  const failures = new Map<Contender, Failure>();
  for (const contender of contenders) {
    try {
      sessions.set(contender, await contender.open(origin));
    } catch (error) {
      failures.set(contender, { stage: 'open', error: describeError(error) });
      console.log(`FAILED ${contender.name} at open: ${describeError(error)}`);
    }
  }
  return { sessions, failures };
}

/** Compares the server's per-route counts with what the clients issued: proves every request really reached it. */
async function checkServer(origin: string, scenarios: readonly Scenario[], outcomes: readonly ScenarioOutcome[]): Promise<string> {
  const counts = (await serverStats(origin)).served;
  const problems: string[] = [];
  const notes: string[] = [];
  for (const [i, scenario] of scenarios.entries()) {
    const { tally, anyFailed } = outcomes[i];
    const served = counts[scenario.route] ?? 0;
    // a failed request may or may not have reached the server
    const ok = anyFailed ? tally.succeeded <= served && served <= tally.attempted : served === tally.succeeded;
    if (!ok) problems.push(`${scenario.route}: server served ${served}, clients completed ${tally.succeeded} of ${tally.attempted}`);
    notes.push(anyFailed ? `${scenario.route}: ${served} (clients completed ${tally.succeeded} of ${tally.attempted} started)` : `${scenario.route}: ${served}`);
  }
  if (problems.length > 0) throw new Error(`server request counts disagree: ${problems.join('; ')}`);
  return `server counted exactly the requests the clients completed (${notes.join(', ')})`;
}
