// `hb --public-only`: the address policy on the command line.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { useTestServer } from '../support/use-test-server.js';
import { builtCli } from './support/built-cli.js';
import { runHb } from './support/run-hb.js';

const holder = useTestServer();
let cli = '';
beforeAll(async () => {
  cli = await builtCli();
}, 180_000);

describe('hb --public-only', () => {
  it('refuses a loopback address before anything is sent: one line, exit 1', async () => {
    const result = await runHb(cli, ['get', `${holder.server.httpUrl}/x`, '--public-only']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^hb: AddressBlockedError: client.publicOnly refused 127\.0\.0\.1: a loopback address; nothing was sent/);
    expect(holder.server.requests).toHaveLength(0);
  });

  it('without it, the same request goes out', async () => {
    holder.server.expect({ method: 'GET', path: '/x', respond: { body: 'ok' } });
    const result = await runHb(cli, ['get', `${holder.server.httpUrl}/x`]);
    expect([result.code, result.stdout.toString('utf8')]).toEqual([0, 'ok']);
  });
});
