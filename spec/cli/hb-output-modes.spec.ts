// What the `hb` binary prints: --print HBhb, --headers, -b, --quiet, --offline and --curl (the
// last two send nothing), and help: one screen for --help, the rest in `hb help <topic>`.
import { describe, expect, it } from '@jest/globals';
import { ITEM_OPTIONS } from '../../lib/cli/args-items.js';
import { useTestServer } from '../support/use-test-server.js';
import { useBuiltHb } from './support/use-built-hb.js';

const holder = useTestServer();
const { hb } = useBuiltHb();

function created(): string {
  holder.server.expect({ method: 'POST', path: '/users', respond: { status: 201, headers: { 'Content-Type': 'text/plain', 'X-Id': '7' }, body: 'made' } });
  return `${holder.server.httpUrl}/users`;
}

/** The response head lines hb prints, the Date header (it changes) left out. */
function head(text: string): string {
  return text
    .split('\n')
    .filter((line) => !line.startsWith('Date: '))
    .join('\n');
}

const RESPONSE_HEAD = 'HTTP/1.1 201 Created\nContent-Type: text/plain\nX-Id: 7\nConnection: keep-alive\nKeep-Alive: timeout=5\nContent-Length: 4\n\n';

describe('hb: --print and its shorthands', () => {
  it('--print HBhb: the request as sent, then the response head and body', async () => {
    const url = created();
    const result = await hb(url, 'name=Ada', '--print', 'HBhb', 'User-Agent:', 'Accept-Encoding:');
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const host = new URL(url).host;
    const request = `POST /users HTTP/1.1\nAccept: application/json\nContent-Type: application/json\nContent-Length: 14\nHost: ${host}\n\n{"name":"Ada"}\n\n`;
    expect(head(result.stdout.toString('utf8'))).toBe(`${request}${RESPONSE_HEAD}made`);
  });

  it('--print Hh: heads only; B alone prints only the body sent', async () => {
    const url = created();
    const heads = (await hb(url, 'name=Ada', '--print=Hh')).stdout.toString('utf8');
    expect(heads).toMatch(/^POST \/users HTTP\/1\.1\n/);
    expect(heads).not.toContain('{"name":"Ada"}');
    expect(heads.endsWith('\n\n')).toBe(true);
    expect(heads).not.toMatch(/made$/);
    holder.server.reset();
    const sentBody = await hb(created(), 'name=Ada', '--print', 'B');
    expect(sentBody.stdout.toString('utf8')).toBe('{"name":"Ada"}\n\n');
  });

  it('--headers prints the response head only; -b and --body the body only', async () => {
    expect(head((await hb(created(), 'name=Ada', '--headers')).stdout.toString('utf8'))).toBe(RESPONSE_HEAD);
    for (const flag of ['-b', '--body']) {
      holder.server.reset();
      expect((await hb(created(), 'name=Ada', flag)).stdout.toString('utf8')).toBe('made');
    }
  });

  it('--quiet prints nothing on success; a failing status still exits 4 with its line on stderr', async () => {
    const ok = await hb(created(), 'name=Ada', '--quiet');
    expect({ code: ok.code, stdout: ok.stdout.toString('utf8'), stderr: ok.stderr }).toEqual({ code: 0, stdout: '', stderr: '' });
    const missing = await hb(`${holder.server.httpUrl}/missing`, '--quiet');
    expect({ code: missing.code, stdout: missing.stdout.toString('utf8') }).toEqual({ code: 4, stdout: '' });
    expect(missing.stderr).toBe(`hb: 404 Not Found (GET ${holder.server.httpUrl}/missing)\n`);
  });

  it('two modes at once, or letters --print does not know: exit 2, nothing sent', async () => {
    for (const [args, message] of [
      [['--headers', '-b'], '--headers and --body both choose what is printed: give one'],
      [['--print', 'hx'], "--print expects letters from HBhb (H request head, B request body, h response head, b response body), got 'hx'"],
      [['-i', '--quiet'], '--quiet and -i both choose what is printed: give one'],
      [['--offline', '--curl'], '--offline and --curl both print instead of sending: give one'],
      [['--curl', '--headers'], '--curl prints only the curl command: drop --headers'],
    ] as const) {
      const result = await hb(`${holder.server.httpUrl}/x`, ...args);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: `hb: ${message}; see hb --help\n` });
    }
    expect(holder.server.requests).toHaveLength(0);
  });
});

describe('hb: printing instead of sending', () => {
  it('--offline prints the request (HB), sends nothing and exits 0', async () => {
    const result = await hb('-X', 'PATCH', 'http://api.example.invalid/users/1?x=1', 'name=Ada', 'q==2', 'Accept-Encoding:', 'User-Agent:');
    // the same command line offline: no name is resolved, nothing connects
    const offline = await hb('-X', 'PATCH', 'http://api.example.invalid/users/1?x=1', 'name=Ada', 'q==2', 'Accept-Encoding:', 'User-Agent:', '--offline');
    expect(result.code).toBe(1);
    expect({ code: offline.code, stderr: offline.stderr }).toEqual({ code: 0, stderr: '' });
    expect(offline.stdout.toString('utf8')).toBe(
      'PATCH /users/1?x=1&q=2 HTTP/1.1\nAccept: application/json\nContent-Type: application/json\nContent-Length: 14\nHost: api.example.invalid\n\n{"name":"Ada"}\n\n',
    );
  });

  it('--offline --print H prints the head only; the server sees nothing', async () => {
    const result = await hb(`${holder.server.httpUrl}/users`, 'name=Ada', '--offline', '--print', 'H');
    expect(result.stdout.toString('utf8')).toMatch(/^POST \/users HTTP\/1\.1\n(.+\n)+\n$/);
    expect(holder.server.requests).toHaveLength(0);
  });

  it('--curl prints one line starting with curl and sends nothing', async () => {
    const result = await hb(`${holder.server.httpUrl}/users`, 'name=Ada', '--curl');
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.stdout.toString('utf8')).toMatch(/^curl -L '?http:\/\/127\.0\.0\.1:\d+\/users'? .*--data-binary '\{"name":"Ada"\}'\n$/);
    expect(holder.server.requests).toHaveLength(0);
  });
});

describe('hb: help', () => {
  it('--help is one screen: at most 45 lines of at most 100 columns', async () => {
    const lines = (await hb('--help')).stdout.toString('utf8').trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(45);
    expect(lines.filter((line) => line.length > 100)).toEqual([]);
  });

  it('hb help <topic> prints the topic; hb help all every option hb has', async () => {
    const items = await hb('help', 'items');
    expect({ code: items.code, stderr: items.stderr }).toEqual({ code: 0, stderr: '' });
    expect(items.stdout.toString('utf8')).toMatch(/^Request items/);
    const all = (await hb('help', 'all')).stdout.toString('utf8') + (await hb('--help')).stdout.toString('utf8');
    for (const option of [
      'header',
      'query',
      'json',
      'data',
      'form',
      'file',
      'basic',
      'digest',
      'bearer',
      'backend',
      'insecure',
      'cacert',
      'cert',
      'cert-type',
      'key',
      'pass',
      'pinnedpubkey',
      'http2',
      'public-only',
      'proxy',
      'noproxy',
      'output',
      'paginate',
      'stream',
      'include',
      'verbose',
      'timeout',
      'retry',
      'session',
      'cache',
      'write-out',
      'help',
      'version',
      ...Object.keys(ITEM_OPTIONS),
    ]) {
      expect(all).toContain(`--${option}`);
    }
  });

  it('an unknown topic: exit 2, naming the topics and the closest one', async () => {
    const result = await hb('help', 'outptu');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^hb: no help topic 'outptu' \(did you mean output\?\); topics: items, output, .*, all; see hb --help\n$/);
  });
});
