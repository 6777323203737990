import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { useTestServer } from '../support/use-test-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLIENT = fileURLToPath(new URL('../support/debug-env-client.ts', import.meta.url));

/** Runs the client script with `DEBUG` set to `debug` (unset when undefined); resolves to its stdout and stderr. */
function run(url: string, debug: string | undefined): Promise<{ stdout: string; stderr: string }> {
  const env = { ...process.env };
  delete env.DEBUG;
  if (debug !== undefined) env.DEBUG = debug;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', CLIENT, url], { cwd: ROOT, env, timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`client failed: ${error.message}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}

describe('DEBUG=httpbuilder', () => {
  const holder = useTestServer();

  it('prints one line per request and response on stderr, with query credentials redacted; nothing without it', async () => {
    const { server } = holder;
    const url = `${server.url(false)}/env?token=t0ps3cret`;
    server.expect({ method: 'GET', path: '/env', respond: { headers: { 'Content-Type': 'application/json' }, body: '{"ok":true}' } });
    const on = await run(url, 'express,httpbuilder');
    expect(on.stdout).toBe('{"ok":true}');
    const lines = on.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`httpbuilder → GET ${server.url(false)}/env?token=***`);
    expect(lines[1]).toMatch(/^httpbuilder ← 200 GET http:\/\/127\.0\.0\.1:\d+\/env\?token=\*\*\* \d+\.\d ms 11 B$/);
    expect(lines).toHaveLength(2);

    server.expect({ method: 'GET', path: '/env', respond: { headers: { 'Content-Type': 'application/json' }, body: '{"ok":true}' } });
    const off = await run(url, undefined);
    expect(off).toEqual({ stdout: '{"ok":true}', stderr: '' });
  }, 60_000);
});
