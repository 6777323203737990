/**
 * `npm run bench`: starts the server in its own process, warms every contender up, then runs
 * interleaved rounds (every contender once per round, order rotated) and reports medians.
 * Exits non-zero only on errors (a missed target is reported, not fatal).
 *
 * @module
 */
import os from 'node:os';
import { CONTENDERS, type Contender, type Session } from './contenders.js';
import { measureRun, settle } from './measure.js';
import { parseOptions, type BenchOptions } from './options.js';
import { pinSelf, affinityOf } from './pinning.js';
import { formatText, summarise, writeResults, type BenchReport, type RunRecord, type ScenarioReport } from './report.js';
import { SCENARIOS, type Scenario } from './scenarios.js';
import { serverStats, startServer } from './server-process.js';

async function runScenario(scenario: Scenario, sessions: ReadonlyMap<Contender, Session>, origin: string, options: BenchOptions): Promise<ScenarioReport> {
  console.log(`\nScenario (${scenario.id}) ${scenario.title}`);
  for (const [contender, session] of sessions) {
    if (options.warmup === 0) break;
    await measureRun(() => scenario.run(session), scenario.check, options.warmup, options.concurrency);
    console.log(`  warm-up ${contender.name}: ${options.warmup} requests`);
  }
  const runs = new Map<Contender, RunRecord[]>(CONTENDERS.map((c) => [c, []]));
  for (let round = 1; round <= options.rounds; round++) {
    // rotation: every contender runs first, second, ... equally often (with rounds = a multiple of the count)
    const order = CONTENDERS.map((_, i) => CONTENDERS[(i + round - 1) % CONTENDERS.length]);
    for (const [position, contender] of order.entries()) {
      const session = sessions.get(contender)!;
      // stats requests sit outside the measured window; each opens one connection of its own
      const before = await serverStats(origin);
      await settle();
      const result = await measureRun(() => scenario.run(session), scenario.check, options.requests, options.concurrency);
      const after = await serverStats(origin);
      const serverCpuUs = after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system;
      runs.get(contender)!.push({
        ...result,
        round,
        order: position,
        newConnections: after.connections - before.connections - 1,
        serverCpuUsPerReq: serverCpuUs / result.requests,
      });
      console.log(
        `  round ${round}/${options.rounds}  ${contender.name.padEnd(26)} ${result.reqPerSec.toFixed(0).padStart(7)} req/s  ${result.cpuUsPerReq.toFixed(1).padStart(6)} CPU µs/req`,
      );
    }
  }
  return { id: scenario.id, title: scenario.title, contenders: summarise(CONTENDERS, runs) };
}

/** Compares the server's per-route counts with what we issued: proves every request really reached it. */
async function checkServer(origin: string, options: BenchOptions): Promise<string> {
  const counts = (await serverStats(origin)).served;
  const problems: string[] = [];
  for (const scenario of SCENARIOS) {
    const expected = CONTENDERS.length * (options.warmup + options.rounds * options.requests);
    const got = counts[scenario.route] ?? 0;
    if (got !== expected) problems.push(`${scenario.route}: server served ${got}, clients issued ${expected}`);
  }
  if (problems.length > 0) throw new Error(`server request counts disagree: ${problems.join('; ')}`);
  return `server counted exactly the issued requests (${SCENARIOS.map((s) => `${s.route}: ${counts[s.route]}`).join(', ')})`;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2), process.env);
  const pin = pinSelf();
  const server = await startServer();
  const clientPinning = `${pin.status} (affinity now ${affinityOf(process.pid)})`;
  const serverPinning = server.pinned ? `server pid ${server.pid} started under taskset, affinity ${server.affinity}` : 'server not pinned';
  console.log(`client: ${clientPinning}\nserver: ${serverPinning}, ${server.origin}`);
  const sessions = new Map<Contender, Session>();
  try {
    for (const contender of CONTENDERS) sessions.set(contender, contender.open(server.origin));
    const scenarios: ScenarioReport[] = [];
    for (const scenario of SCENARIOS) scenarios.push(await runScenario(scenario, sessions, server.origin, options));
    const serverCheck = await checkServer(server.origin, options);
    const report: BenchReport = {
      date: new Date().toISOString(),
      node: process.version,
      cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
      cpuCount: os.cpus().length, // not availableParallelism(): pinning narrows that to 1
      platform: `${process.platform}-${process.arch}`,
      pinning: { client: clientPinning, server: serverPinning },
      options,
      scenarios,
      clientMaxRssBytes: process.resourceUsage().maxRSS * 1024,
      serverCheck,
    };
    console.log(`\n${formatText(report)}`);
    console.log(`\nwrote ${writeResults(report).join(', ')}`);
  } finally {
    await Promise.allSettled([...sessions.values()].map((s) => s.close()));
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
