// hb --compress --compress-with deflate cross-checked with httpie's -x (the `http` command; hb's
// --compress alone is gzip, httpie's zlib deflate): the same upload sent by both to the same local server, which decodes each body by its Content-Encoding (deflate strictly in
// the zlib format, as RFC 9110 means it and httpie sends it), must arrive alike: the same coding,
// a Content-Length that is the compressed size, and the same content once decoded.
import { afterAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { inflateSync } from 'node:zlib';
import { HttpBuilder } from '../../lib/index.js';
import { BACKENDS } from '../conformance/backends.js';
import { useBuiltHb } from '../cli/support/use-built-hb.js';
import { runHb } from '../cli/support/run-hb.js';
import type { RecordedRequest } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';
import { startApache } from './servers/index.js';
import { usePeer } from './servers/use-peer.js';

/** What arrived of one upload: its coding, whether its Content-Length is the size on the wire, and its content decoded. */
interface Arrived {
  readonly coding: string | undefined;
  readonly lengthIsWireSize: boolean;
  readonly content: Buffer;
}

const holder = useTestServer();
const built = useBuiltHb();
const home = mkdtempSync(join(tmpdir(), 'hb-compress-interop-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** One upload: httpie's options (before `POST <url>`) and items (after it), hb's arguments (after `post <url>`), and a body both read from stdin. */
interface Upload {
  readonly httpie: readonly string[];
  readonly items?: readonly string[];
  readonly hb: readonly string[];
  readonly stdin?: Buffer;
}

/** Runs httpie; its exit code and stderr. */
function httpie(args: readonly string[], stdin: Buffer | undefined): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    // a config dir of its own: httpie writes there, and reads no user's defaults
    const env = { ...process.env, HOME: home, HTTPIE_CONFIG_DIR: join(home, 'httpie') };
    const options = stdin === undefined ? ['--ignore-stdin'] : [];
    const child = execFile('http', [...options, '--check-status', '--timeout', '10', ...args], { timeout: 20_000, env }, (error, _stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stderr });
    });
    child.stdin?.end(stdin);
  });
}

function arrived(req: RecordedRequest): Arrived {
  const coding = req.headers['content-encoding'] as string | undefined;
  if (coding !== undefined && coding !== 'deflate') throw new Error(`unexpected Content-Encoding ${coding}`);
  return {
    coding,
    lengthIsWireSize: Number(req.headers['content-length']) === req.body.length,
    content: coding === undefined ? req.body : inflateSync(req.body),
  };
}

/** Sends the upload with httpie and with hb; what arrived of each. */
async function both(upload: Upload): Promise<{ httpie: Arrived; hb: Arrived }> {
  holder.server.reset();
  holder.server.expect({ method: 'POST', path: '/ingest', respond: { status: 204 } });
  const url = `${holder.server.httpUrl}/ingest`;
  expect(await httpie([...upload.httpie, 'POST', url, ...(upload.items ?? [])], upload.stdin)).toEqual({ code: 0, stderr: '' });
  const stdin = upload.stdin === undefined ? undefined : { through: 'file' as const, data: upload.stdin };
  const byHb = await runHb(built.cli, ['post', url, ...upload.hb, ...(upload.items ?? [])], { env: { HOME: home }, stdin });
  expect({ code: byHb.code, stderr: byHb.stderr }).toEqual({ code: 0, stderr: '' });
  const [first, second] = holder.server.requests;
  return { httpie: arrived(first), hb: arrived(second) };
}

/** hb's flags for httpie's `-x`: its coding, deflate, named (hb's `--compress` alone is gzip). */
const DEFLATE = ['--compress', '--compress-with', 'deflate'];

const EVENTS = Array.from({ length: 300 }, (_, i) => `{"level":"info","seq":${i},"msg":"request served"}`).join('\n');

describe('hb --compress --compress-with deflate and httpie -x send the same upload', () => {
  it('a raw body of 1 KiB and more: deflate (zlib) with its compressed Content-Length, the same bytes once decoded', async () => {
    const sent = await both({ httpie: ['-x', '--raw', EVENTS], hb: [...DEFLATE, '--data', EVENTS] });
    expect(sent.httpie).toEqual({ coding: 'deflate', lengthIsWireSize: true, content: Buffer.from(EVENTS) });
    expect(sent.hb).toEqual(sent.httpie);
  });

  it('JSON items: both deflate, the same JSON once decoded (httpie spaces its JSON, hb does not)', async () => {
    const items = Array.from({ length: 60 }, (_, i) => `field${i}=value number ${i}`);
    const sent = await both({ httpie: ['-x'], items, hb: [...DEFLATE] });
    expect([sent.httpie.coding, sent.hb.coding]).toEqual(['deflate', 'deflate']);
    expect(JSON.parse(sent.hb.content.toString())).toEqual(JSON.parse(sent.httpie.content.toString()));
  });

  it('a body from stdin: the same', async () => {
    const sent = await both({ httpie: ['-x'], hb: [...DEFLATE, '--data', '@-'], stdin: Buffer.from(EVENTS) });
    expect(sent.httpie).toEqual({ coding: 'deflate', lengthIsWireSize: true, content: Buffer.from(EVENTS) });
    expect(sent.hb).toEqual(sent.httpie);
  });

  it('a small body: as it is for -x and --compress; deflated for -xx and --compress twice', async () => {
    const once = await both({ httpie: ['-x', '--raw', 'tiny'], hb: [...DEFLATE, '--data', 'tiny'] });
    expect(once.httpie).toEqual({ coding: undefined, lengthIsWireSize: true, content: Buffer.from('tiny') });
    expect(once.hb).toEqual(once.httpie);
    const twice = await both({ httpie: ['-xx', '--raw', 'tiny'], hb: [...DEFLATE, '--compress', '--data', 'tiny'] });
    expect(twice.httpie).toEqual({ coding: 'deflate', lengthIsWireSize: true, content: Buffer.from('tiny') });
    expect(twice.hb).toEqual(twice.httpie);
  });

  it('where they differ (docs/cli.md): a body that deflate does not shrink goes as it is with httpie -x, deflated with hb --compress', async () => {
    const noise = randomBytes(4096);
    const sent = await both({ httpie: ['-x'], hb: [...DEFLATE, '--data', '@-'], stdin: noise });
    expect(sent.httpie).toEqual({ coding: undefined, lengthIsWireSize: true, content: noise });
    expect(sent.hb).toEqual({ coding: 'deflate', lengthIsWireSize: true, content: noise });
  });
});

// Apache httpd's mod_deflate input filter (`SetInputFilter DEFLATE`, gzip only) in front of the echo
// CGI: a real server that undoes the library's gzip, on every backend, and hb's.
describe('Apache httpd decodes what request.compress sends (SetInputFilter DEFLATE)', () => {
  const apache = usePeer(startApache);

  for (const backend of BACKENDS) {
    it(`${backend.name}: a gzip body in memory and a streamed one arrive decoded at the CGI`, async () => {
      const client = HttpBuilder.configure((c) => {
        c.request.uri = apache.server.url('/inflate/echo');
        c.client.backend = backend.choice;
        c.request.compress = 'gzip';
        c.request.contentType = 'text/plain';
      });
      try {
        expect(await client.post(String, (c) => void (c.request.body = EVENTS))).toBe(`POST  ${EVENTS}`);
        expect(await client.post(String, (c) => void (c.request.body = Readable.from([Buffer.from(EVENTS)])))).toBe(`POST  ${EVENTS}`);
      } finally {
        await client.close();
      }
    });
  }

  it('hb --compress-with gzip: the same', async () => {
    const byHb = await runHb(built.cli, ['post', apache.server.url('/inflate/echo'), '--compress-with', 'gzip', '--data', EVENTS], { env: { HOME: home } });
    expect({ code: byHb.code, stdout: byHb.stdout.toString(), stderr: byHb.stderr }).toEqual({ code: 0, stdout: `POST  ${EVENTS}`, stderr: '' });
  });
});
