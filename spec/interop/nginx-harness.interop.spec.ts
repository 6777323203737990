// The nginx harness itself, checked with curl as the reference client: nginx starts, speaks
// HTTP/2 on its TLS port when ALPN asks for it (HTTP/1.1 otherwise, and always on its plain
// port), serves its JSON, gzip'd text and big file, answers conditional requests, reads
// uploads, multiplexes parallel requests on one connection, logs the protocol of each request,
// and leaves no process behind.
import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { NGINX_BIG_SIZE, NGINX_JSON, NGINX_PATHS, NGINX_TEXT, newTag, probe, startNginx, type NginxLogEntry } from './servers/index.js';
import { usePeer } from './servers/use-peer.js';

const execFileAsync = promisify(execFile);

// curl reads http_proxy, HTTPS_PROXY, NO_PROXY, ...: a runner's own would change the route
const CURL_ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(all|https?|no)_proxy$/i.test(name)));

interface CurlAnswer {
  readonly status: number;
  /** `%{http_version}`: `2`, `1.1`. */
  readonly version: string;
  /** Bytes curl received for the body (before decoding). */
  readonly downloaded: number;
  /** The body (decoded with `--compressed`), or what `-D -` wrote before it. */
  readonly body: string;
}

const WRITE_OUT = '\n--hb-curl %{http_code} %{http_version} %{size_download}\n';

/** curl's answer for each URL given, in order. */
async function curlEach(args: readonly string[]): Promise<CurlAnswer[]> {
  const { stdout } = await execFileAsync('curl', ['-sS', '--max-time', '20', '-w', WRITE_OUT, ...args], { env: CURL_ENV, maxBuffer: 16 * 1024 * 1024 });
  return [...stdout.matchAll(/([^]*?)\n--hb-curl (\d+) (\S+) (\d+)\n/g)].map(([, body = '', status, version = '', downloaded]) => ({
    status: Number(status),
    version,
    downloaded: Number(downloaded),
    body,
  }));
}

/** curl's answer for its one URL. */
async function curl(args: readonly string[]): Promise<CurlAnswer> {
  const [answer, ...more] = await curlEach(args);
  if (answer === undefined || more.length > 0) throw new Error(`curl ${args.join(' ')}: ${more.length + (answer === undefined ? 0 : 1)} answers`);
  return answer;
}

function shown(entries: readonly NginxLogEntry[]): string[] {
  return entries.map((entry) => `${entry.method} ${entry.status} ${entry.protocol} ${entry.alpn ?? '-'} ${entry.contentEncoding ?? '-'}`);
}

/** Header `name` of a `curl -D -` dump (the last response's). */
function headerOf(dump: string, name: string): string | undefined {
  const lines = dump.split(/\r?\n/).filter((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return lines
    .at(-1)
    ?.slice(name.length + 1)
    .trim();
}

/** The processes of process group `group` (a detached daemon leads its own: its pid), as `pid: command line`. */
async function processGroup(group: number): Promise<string[]> {
  const found: string[] = [];
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === group) found.push(`${pid}: ${(await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).replaceAll('\0', ' ')}`);
  }
  return found;
}

describe('nginx harness (curl as the client)', () => {
  const peer = usePeer(startNginx);
  const tls = (): string[] => ['--cacert', peer.server.caFile];

  it('speaks HTTP/2 on its TLS port when asked (ALPN h2), with the certificate verified for 127.0.0.1 and localhost', async () => {
    const tag = newTag();
    const answer = await curl([...tls(), '--http2', peer.server.url(NGINX_PATHS.json, tag)]);
    expect(answer).toMatchObject({ status: 200, version: '2' });
    expect(JSON.parse(answer.body)).toEqual(NGINX_JSON);
    const byName = await curl([...tls(), '--http2', `https://localhost:${peer.server.httpsPort}${NGINX_PATHS.json}?t=${tag}`]);
    expect(byName).toMatchObject({ status: 200, version: '2' });
    const entries = await peer.server.accessLog.entries(tag, { atLeast: 2 });
    expect(shown(entries)).toEqual(['GET 200 HTTP/2.0 h2 -', 'GET 200 HTTP/2.0 h2 -']);
    expect(entries.map((entry) => entry.port)).toEqual([peer.server.httpsPort, peer.server.httpsPort]);
    expect(entries[0]?.tls).toBe('TLSv1.3');
    expect(entries[0]?.line).toContain(`"GET ${NGINX_PATHS.json}?t=${tag} HTTP/2.0"`);
  });

  it('speaks HTTP/1.1 on its TLS port to a client that offers only http/1.1', async () => {
    const tag = newTag();
    const answer = await curl([...tls(), '--http1.1', peer.server.url(NGINX_PATHS.json, tag)]);
    expect(answer).toMatchObject({ status: 200, version: '1.1' });
    expect(JSON.parse(answer.body)).toEqual(NGINX_JSON);
    expect(shown(await peer.server.accessLog.entries(tag, { atLeast: 1 }))).toEqual(['GET 200 HTTP/1.1 http/1.1 -']);
  });

  it('speaks HTTP/1.1 only on its plain port (an h2c upgrade is ignored)', async () => {
    const tag = newTag();
    const answer = await curl(['--http2', peer.server.url(NGINX_PATHS.json, tag, 'http')]);
    expect(answer).toMatchObject({ status: 200, version: '1.1' });
    const entries = await peer.server.accessLog.entries(tag, { atLeast: 1 });
    expect(shown(entries)).toEqual(['GET 200 HTTP/1.1 - -']);
    expect(entries[0]).toMatchObject({ port: peer.server.httpPort, tls: undefined });
  });

  it("sends the text gzip'd to a client that accepts gzip, over HTTP/2 and HTTP/1.1, and plain to one that does not", async () => {
    const tag = newTag();
    for (const version of ['--http2', '--http1.1']) {
      const answer = await curl([...tls(), version, '--compressed', peer.server.url(NGINX_PATHS.text, tag)]);
      expect(answer).toMatchObject({ status: 200, body: NGINX_TEXT });
      expect(answer.downloaded).toBeLessThan(Buffer.byteLength(NGINX_TEXT) / 4);
    }
    const plain = await curl([...tls(), '--http2', peer.server.url(NGINX_PATHS.text, tag)]);
    expect(plain).toMatchObject({ status: 200, body: NGINX_TEXT, downloaded: Buffer.byteLength(NGINX_TEXT) });
    expect(shown(await peer.server.accessLog.entries(tag, { atLeast: 3 }))).toEqual([
      'GET 200 HTTP/2.0 h2 gzip',
      'GET 200 HTTP/1.1 http/1.1 gzip',
      'GET 200 HTTP/2.0 h2 -',
    ]);
  });

  it('answers with the content types, ETag and Last-Modified of static files, and 304 to a conditional request', async () => {
    const text = await curl([...tls(), '--http2', '-D', '-', '-o', '/dev/null', peer.server.url(NGINX_PATHS.text)]);
    expect(headerOf(text.body, 'content-type')).toBe('text/plain; charset=utf-8');
    expect(headerOf(text.body, 'vary')).toBe('Accept-Encoding');
    const json = await curl([...tls(), '--http2', '-D', '-', '-o', '/dev/null', peer.server.url(NGINX_PATHS.json)]);
    expect(headerOf(json.body, 'content-type')).toBe('application/json');
    const etag = headerOf(json.body, 'etag');
    const lastModified = headerOf(json.body, 'last-modified');
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(lastModified).toMatch(/ GMT$/);
    const tag = newTag();
    const byEtag = await curl([...tls(), '--http2', '-H', `If-None-Match: ${etag ?? ''}`, peer.server.url(NGINX_PATHS.json, tag)]);
    const byDate = await curl([...tls(), '--http2', '-H', `If-Modified-Since: ${lastModified ?? ''}`, peer.server.url(NGINX_PATHS.json, tag)]);
    expect([byEtag, byDate]).toMatchObject([
      { status: 304, body: '' },
      { status: 304, body: '' },
    ]);
    expect(shown(await peer.server.accessLog.entries(tag, { atLeast: 2 }))).toEqual(['GET 304 HTTP/2.0 h2 -', 'GET 304 HTTP/2.0 h2 -']);
  });

  it('serves the 2 MiB file whole over HTTP/2', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'hb-nginx-curl-'));
    try {
      const file = join(folder, 'big.bin');
      const answer = await curl([...tls(), '--http2', '-o', file, peer.server.url(NGINX_PATHS.big)]);
      expect(answer).toMatchObject({ status: 200, version: '2', downloaded: NGINX_BIG_SIZE });
      expect(
        createHash('sha256')
          .update(await readFile(file))
          .digest('hex'),
      ).toBe(peer.server.bigSha256);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('echoes the method and target on /echo, reads a whole upload on /upload, redirects /redirect', async () => {
    const tag = newTag();
    expect(await curl([...tls(), '--http2', '-X', 'DELETE', peer.server.url(`${NGINX_PATHS.echo}?x=1`, tag)])).toMatchObject({
      status: 200,
      version: '2',
      body: `DELETE ${NGINX_PATHS.echo}?x=1&t=${tag}`,
    });
    const folder = await mkdtemp(join(tmpdir(), 'hb-nginx-curl-'));
    try {
      const file = join(folder, 'upload.bin');
      await writeFile(file, Buffer.alloc(3 * 1024 * 1024 + 7, 'x'));
      for (const version of ['--http2', '--http1.1'])
        expect(await curl([...tls(), version, '--data-binary', `@${file}`, peer.server.url(NGINX_PATHS.upload, tag)])).toMatchObject({
          status: 200,
          body: `POST ${3 * 1024 * 1024 + 7}`,
        });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    const redirect = await curl([...tls(), '--http2', '-D', '-', '-o', '/dev/null', peer.server.url(NGINX_PATHS.redirect, tag)]);
    expect(redirect.status).toBe(302);
    expect(headerOf(redirect.body, 'location')).toBe(`${peer.server.httpsUrl}${NGINX_PATHS.json}?t=${tag}`);
    // the upload's proxied request to /sink is not logged: one line per request of the client
    expect(shown(await peer.server.accessLog.entries(tag, { atLeast: 4 }))).toEqual([
      'DELETE 200 HTTP/2.0 h2 -',
      'POST 200 HTTP/2.0 h2 -',
      'POST 200 HTTP/1.1 http/1.1 -',
      'GET 302 HTTP/2.0 h2 -',
    ]);
  });

  it('multiplexes parallel HTTP/2 requests on one connection; parallel HTTP/1.1 ones take several', async () => {
    const urls = (tag: string): string[] =>
      Array.from({ length: 6 }, (_, index) => peer.server.url(index % 2 === 0 ? NGINX_PATHS.json : NGINX_PATHS.text, tag));
    const h2 = newTag();
    const h2Answers = await curlEach([...tls(), '--http2', '--parallel', '--parallel-max', '6', ...urls(h2)]);
    expect(h2Answers.map((answer) => `${answer.status} ${answer.version}`)).toEqual(Array.from({ length: 6 }, () => '200 2'));
    expect(await peer.server.accessLog.connections(h2, { atLeast: 6 })).toBe(1);
    const h1 = newTag();
    const h1Answers = await curlEach([...tls(), '--http1.1', '--parallel', '--parallel-immediate', '--parallel-max', '6', ...urls(h1)]);
    expect(h1Answers.map((answer) => `${answer.status} ${answer.version}`)).toEqual(Array.from({ length: 6 }, () => '200 1.1'));
    expect(await peer.server.accessLog.connections(h1, { atLeast: 6 })).toBeGreaterThan(1);
  });
});

describe('nginx harness lifecycle', () => {
  it('stop() ends the master and its worker, frees both ports and removes the folder', async () => {
    const server = await startNginx();
    const group = server.pid ?? 0;
    try {
      // master and one worker, in a process group of their own
      expect((await processGroup(group)).length).toBe(2);
    } finally {
      await server.stop();
    }
    expect(await processGroup(group)).toEqual([]);
    await expect(probe(server.url(NGINX_PATHS.marker, undefined, 'http'))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await expect(curl(['--cacert', '/dev/null', server.url(NGINX_PATHS.marker)])).rejects.toMatchObject({ code: 7 }); // couldn't connect
    if (process.env.HB_INTEROP_KEEP !== '1') await expect(readdir(server.root)).rejects.toMatchObject({ code: 'ENOENT' });
    await server.stop(); // idempotent
  });
});
