import { expect, it } from '@jest/globals';
import { ConfigError, EncodeError } from '../../lib/index.js';
import { conformance } from './kit.js';

class User {
  name = '';
  greet(): string {
    return `hi ${this.name}`;
  }
}

/** Keys named like Object.prototype members are data like any other (found by the property tests in spec/fuzz). */
conformance('__proto__, constructor and friends are plain keys', (kit) => {
  it('a JSON body with "__proto__" converts to a real instance of the result class, with no injected prototype', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/user',
      respond: { body: '{"name":"ada","__proto__":{"isAdmin":true}}', headers: { 'Content-Type': 'application/json' } },
    });
    const user = await kit.client().get(User, (c) => void (c.request.uri.path = '/user'));
    expect(user).toBeInstanceOf(User);
    expect(user.greet()).toBe('hi ada');
    expect((user as unknown as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    expect(({} as { isAdmin?: unknown }).isAdmin).toBeUndefined();
  });

  it('a URL query parameter named __proto__ or constructor is sent', async () => {
    kit.server.expect({ method: 'GET', path: '/q', respond: { body: 'ok', headers: { 'Content-Type': 'text/plain' } } });
    await expect(kit.client().get((c) => void (c.request.uri = `${kit.server.url(kit.secure)}/q?__proto__=1&constructor=2`))).resolves.toBe('ok');
    expect(kit.server.requests[0].target).toBe('/q?__proto__=1&constructor=2');
  });

  it('a header named __proto__ is refused by name (ConfigError) rather than dropped silently', async () => {
    const error = await kit
      .client()
      .get((c) => {
        c.request.uri.path = '/h';
        c.request.headers = JSON.parse('{"__proto__":"v1"}') as Record<string, string>;
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/header name '__proto__' is not supported/);
    expect(kit.server.requests).toHaveLength(0);
  });

  it("request.charset 'constructor' is an unsupported charset (EncodeError), not Object's constructor", async () => {
    const error = await kit
      .client()
      .post((c) => {
        c.request.contentType = 'text/plain';
        c.request.charset = 'constructor';
        c.request.body = 'x';
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EncodeError);
    expect(kit.server.requests).toHaveLength(0);
  });
});
