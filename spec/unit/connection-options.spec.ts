// client.connection's ConfigErrors say what is wrong with the value: `maxSockets: 0` once read "... not a number".
import { describe, expect, it } from '@jest/globals';
import { ConfigError, HttpBuilder, type ConnectionOptions } from '../../lib/index.js';

/** The message of the ConfigError setting `client.connection` to `connection` throws. */
function messageFor(connection: unknown): string {
  try {
    HttpBuilder.configure((c) => void (c.client.connection = connection as never));
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`client.connection = ${String(connection)} was accepted`);
}

describe('client.connection', () => {
  it.each([0, -1, 1.5, NaN, -Infinity])('maxSockets: %p is refused with the number itself, never "not a number"', (value) => {
    expect(messageFor({ maxSockets: value })).toBe(`client.connection.maxSockets must be a whole number of at least 1 (or Infinity), not ${String(value)}`);
  });

  it.each([0, -1, 1.5, NaN, Infinity, 2 ** 31])('idleTimeout: %p is refused with the number itself', (value) => {
    expect(messageFor({ idleTimeout: value })).toBe(
      `client.connection.idleTimeout must be a whole number of milliseconds from 1 to 2^31-1, not ${String(value)}`,
    );
  });

  it('family: a number that is neither 4 nor 6 is shown as itself', () => {
    expect(messageFor({ family: 0 })).toBe('client.connection.family must be 4 or 6, not 0');
    expect(messageFor({ family: NaN })).toBe('client.connection.family must be 4 or 6, not NaN');
  });

  it('a value of the wrong type says which type, never what a string holds', () => {
    expect(messageFor({ maxSockets: '4' })).toBe('client.connection.maxSockets must be a whole number of at least 1 (or Infinity), not a string');
    expect(messageFor({ keepAlive: 'yes' })).toBe('client.connection.keepAlive must be true or false, not a string');
    expect(messageFor({ maxSockets: true })).toBe('client.connection.maxSockets must be a whole number of at least 1 (or Infinity), not true');
    expect(messageFor({ family: '4' })).toBe('client.connection.family must be 4 or 6, not a string');
    expect(messageFor({ localAddress: 'eth0' })).toBe('client.connection.localAddress must be an IPv4 or IPv6 address, not a string');
    expect(messageFor({ socketPath: '' })).toBe('client.connection.socketPath must be the path of a Unix domain socket, not an empty string');
    expect(messageFor({ lookup: 'dns' })).toBe('client.connection.lookup must be a dns.lookup-compatible function, not a string');
  });

  it('a proxy URL set as the connection by mistake: its password is not in the message', () => {
    expect(messageFor('http://user:hunter2@proxy:3128')).toBe('client.connection must be an object, not a string');
    expect(messageFor({ socketPath: 'x\0hunter2' })).not.toContain('hunter2');
  });

  it('takes the values at their bounds', () => {
    for (const connection of [
      { maxSockets: 1 },
      { maxSockets: Infinity },
      { idleTimeout: 1 },
      { idleTimeout: 2 ** 31 - 1 },
      { family: 6 },
    ] as ConnectionOptions[]) {
      expect(() => HttpBuilder.configure((c) => void (c.client.connection = connection))).not.toThrow();
    }
  });
});
