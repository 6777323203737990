// HTTP/2 server push is refused on every backend that speaks h2 (API.md, "Safe by default"):
// the client's SETTINGS say `enablePush: false`, a pushed stream that arrives anyway is reset,
// and nothing a server sends ends the process. Against node's own HTTP/2 server (which honours
// the setting) and a raw one that pushes regardless (spec/support/forced-push-server.ts). The
// calls run in a child process (spec/support/push-client.ts): an unhandled 'error' event there
// is an exit code, not a dead jest worker.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import http2 from 'node:http2';
import { fileURLToPath } from 'node:url';
import { HttpBuilder } from '../../lib/index.js';
import { nodeH2Server, type NodeH2Server } from '../support/node-h2-server.js';
import { forcedPushServer, type ForcedPushOptions, type ForcedPushServer } from '../support/forced-push-server.js';
import type { PushCallOutcome, PushClientJob } from '../support/push-client.js';
import { selfSignedCertificate, type TlsCertificate } from '../support/tls-certificate.js';
import { BACKENDS } from './backends.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLIENT = fileURLToPath(new URL('../support/push-client.ts', import.meta.url));
const { NGHTTP2_CANCEL, NGHTTP2_REFUSED_STREAM, NGHTTP2_INTERNAL_ERROR } = http2.constants;

let certificate: TlsCertificate;
let server: NodeH2Server;
let origin = '';
/** Per request path: the client's `enablePush`, and the pushes node's server made or was refused. */
const seen = new Map<string, { enablePush?: boolean; accepted: number; refused: number }>();

type Forced = Record<'goaway' | 'close' | 'many' | 'acknowledged', ForcedPushServer>;

/** Per backend: the raw servers it was sent to, and the run of its client process. */
const runs = new Map<string, { readonly forced: Forced; readonly run: Promise<ClientRun> }>();

/**
 * node's HTTP/2 server: `/push-<n>[-goaway]?...` pushes n streams (each answered and left open)
 * where the client allows it, then answers `{"ok":true}`; with `-goaway`, a GOAWAY with
 * INTERNAL_ERROR follows. Any other path just answers.
 */
function onStream(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders): void {
  const path = String(headers[':path']);
  const session = stream.session!;
  const record = { enablePush: session.remoteSettings.enablePush, accepted: 0, refused: 0 };
  seen.set(path, record);
  const [, count, goaway] = /^\/push-(\d+)(-goaway)?/.exec(path) ?? [];
  let pending = Number(count ?? 0);
  const answer = () => {
    stream.respond({ ':status': 200, 'content-type': 'application/json' });
    stream.end('{"ok":true}');
    if (goaway) setTimeout(() => session.goaway(NGHTTP2_INTERNAL_ERROR), 20);
  };
  const pushed = (error: Error | null, push?: http2.ServerHttp2Stream) => {
    if (error || !push) record.refused++;
    else {
      record.accepted++;
      push.on('error', () => {});
      push.respond({ ':status': 200, 'content-type': 'text/plain' });
      push.write('p'.repeat(100));
    }
    if (--pending === 0) answer();
  };
  if (pending === 0) return answer();
  for (let i = 0; i < Number(count); i++) {
    try {
      stream.pushStream({ ':path': `/pushed/${i}` }, pushed);
    } catch (error) {
      // node's server refuses to push to a client that disabled push (ERR_HTTP2_PUSH_DISABLED)
      pushed(error as Error);
    }
  }
}

beforeAll(async () => {
  certificate = await selfSignedCertificate();
  server = await nodeH2Server({ ...certificate, allowHTTP1: true }, onStream);
  origin = server.origin;
});
afterAll(async () => {
  await Promise.all([...runs.values()].map(async (one) => Promise.all(Object.values(one.forced).map((server) => server.close()))));
  await server.close();
});

/** How a client process ended and what it printed. */
interface ClientRun {
  readonly code: number;
  readonly stderr: string;
  readonly outcomes: PushCallOutcome[];
}

/** Runs the calls in a fresh client process: its exit code, what it printed on stderr, and each call's outcome. */
function runClient(job: PushClientJob): Promise<ClientRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', CLIENT, JSON.stringify(job)], { cwd: ROOT, timeout: 30_000 }, (error, stdout, stderr) => {
      const outcomes = stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as PushCallOutcome);
      resolve({ code: error ? Number(error.code ?? 1) : 0, stderr, outcomes });
    });
  });
}

/** The client process ended by itself (exit code 0); else the test shows the end of its stderr (what killed it). */
function expectLived(run: { code: number; stderr: string }): void {
  expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr.slice(-1500) }).toEqual({ code: 0, stderr: '' });
}

const answered = (name: string): PushCallOutcome => ({ name, settled: 'resolved', value: { ok: true } });

/** Every promised stream was reset by the client with CANCEL or REFUSED_STREAM (RFC 9113 §8.4.2), once. */
function expectAllReset(forced: ForcedPushServer): void {
  const resets = forced.log.resets.filter((reset) => forced.log.pushed.includes(reset.stream));
  expect(resets.map((reset) => reset.stream).sort((a, b) => a - b)).toEqual(forced.log.pushed);
  expect(resets.every((reset) => reset.code === NGHTTP2_CANCEL || reset.code === NGHTTP2_REFUSED_STREAM)).toBe(true);
}

/**
 * One client process per backend for the calls to both servers (a process costs seconds to
 * start), all started at once: to node's server `/push-1-goaway`, `/push-1` then close(),
 * `/push-200`; to raw servers that push 3 streams then GOAWAY, 3 and close(), 3 after
 * acknowledging the client's SETTINGS, 200.
 */
async function startRun(backend: (typeof BACKENDS)[number]): Promise<void> {
  const start = (options: Omit<ForcedPushOptions, 'key' | 'cert'>) => forcedPushServer({ ...certificate, ...options });
  const forced: Forced = {
    goaway: await start({ pushes: 3, after: 'goaway', acknowledge: false }),
    close: await start({ pushes: 3, after: 'hold', acknowledge: false }),
    acknowledged: await start({ pushes: 3, after: 'goaway', acknowledge: true }),
    many: await start({ pushes: 200, after: 'hold', acknowledge: false }),
  };
  const paths = pathsOf(backend.name);
  const run = runClient({
    backend: backend.choice as PushClientJob['backend'],
    ca: certificate.cert,
    calls: [
      { name: 'goaway', url: origin + paths.goaway, then: 'wait' },
      { name: 'close', url: origin + paths.close, then: 'close' },
      { name: 'many', url: origin + paths.many, then: 'keep' },
      { name: 'forced goaway', url: `${forced.goaway.url}/json`, then: 'wait' },
      { name: 'forced close', url: `${forced.close.url}/json`, then: 'close' },
      { name: 'forced acknowledged', url: `${forced.acknowledged.url}/json`, then: 'wait' },
      { name: 'forced many', url: `${forced.many.url}/json`, then: 'keep' },
    ],
  });
  runs.set(backend.name, { forced, run });
}

const pathsOf = (name: string) => ({ goaway: `/push-1-goaway?${name}`, close: `/push-1?${name}`, many: `/push-200?${name}` });

const H2_BACKENDS = BACKENDS.filter((one) => one.traits.speaksHttp2);

beforeAll(async () => {
  await Promise.all(H2_BACKENDS.map(startRun));
});

for (const backend of H2_BACKENDS) {
  describe(`HTTP/2 server push on ${backend.name}`, () => {
    const paths = pathsOf(backend.name);

    it('the client announces enablePush: false in its SETTINGS', async () => {
      const http = HttpBuilder.configure((c) => {
        c.request.uri = `${origin}/settings?${backend.name}`;
        c.client.backend = backend.choice;
        c.client.http2 = true;
        c.execution.tls = { ca: certificate.cert };
      });
      try {
        expect(await http.get()).toEqual({ ok: true });
      } finally {
        await http.close();
      }
      expect(seen.get(`/settings?${backend.name}`)?.enablePush).toBe(false);
    });

    it('a server that would push cannot: GOAWAY after it, close() after it and 200 attempts leave the calls answered and the process alive', async () => {
      const run = await runs.get(backend.name)!.run;
      expectLived(run);
      expect(run.outcomes).toEqual(expect.arrayContaining([answered('goaway'), answered('close'), answered('many')]));
      expect([paths.goaway, paths.close, paths.many].map((path) => seen.get(path))).toEqual([
        { enablePush: false, accepted: 0, refused: 1 },
        { enablePush: false, accepted: 0, refused: 1 },
        { enablePush: false, accepted: 0, refused: 200 },
      ]);
    }, 60_000);

    it('pushed streams that arrive anyway are reset (200 of them too); a push after the settings were acknowledged is an error of the call; the process lives', async () => {
      const { forced, run: running } = runs.get(backend.name)!;
      const run = await running;
      expectLived(run);
      expect(run.outcomes).toEqual(
        expect.arrayContaining([
          answered('forced goaway'),
          answered('forced close'),
          { name: 'forced acknowledged', settled: 'rejected', error: expect.objectContaining({ name: 'NetworkError' }) as unknown },
          answered('forced many'),
        ]),
      );
      for (const one of Object.values(forced)) expect(one.log.enablePush).toEqual([0]);
      // a client closed at once may drop its resets with the connection: only the live ones are counted
      expectAllReset(forced.goaway);
      expectAllReset(forced.many);
      expect(forced.many.log.pushed).toHaveLength(200);
    }, 60_000);
  });
}
