import { describe, expect, it } from '@jest/globals';
import { ProxyAuthorization } from '../../../lib/proxy/proxy-auth.js';

const LOGIN = { user: 'ada', password: 'p@ss' };
const BASIC = `Basic ${Buffer.from('ada:p@ss').toString('base64')}`;
const DIGEST = (nonce: string, extra = '') => `Digest realm="proxy", nonce="${nonce}", qop="auth"${extra}`;

/** The Digest `nc` and `nonce` of a `Proxy-Authorization` value. */
function counted(header: string | undefined): string {
  return `${/nonce="([^"]*)"/.exec(header ?? '')?.[1]} ${/nc=(\w+)/.exec(header ?? '')?.[1]}`;
}

describe('ProxyAuthorization', () => {
  it('without credentials: nothing up front, no answer to a 407, which refused no credentials', () => {
    const answers = new ProxyAuthorization(undefined).answers('CONNECT', 'api.example.com:443');
    expect(answers.first).toBeUndefined();
    expect(answers.retry(['Basic realm="proxy"'])).toBeUndefined();
    expect(answers.refusedCredentials).toBe(false);
  });

  it('sends Basic with the first request, before any challenge; a Basic 407 after it refused the credentials', () => {
    const answers = new ProxyAuthorization(LOGIN).answers('CONNECT', 'api.example.com:443');
    expect(answers.first).toBe(BASIC);
    expect(answers.retry(['Basic realm="proxy"'])).toBeUndefined();
    expect(answers.refusedCredentials).toBe(true);
  });

  it('a 407 asking only for schemes it cannot answer stands, without blaming the credentials', () => {
    const answers = new ProxyAuthorization(LOGIN).answers('GET', 'http://api.example.com/');
    expect(answers.retry(['Negotiate', 'NTLM'])).toBeUndefined();
    expect(answers.refusedCredentials).toBe(false);
  });

  it('a Digest proxy: its 407 after the Basic gets Digest, and every later request Digest up front with the next nc', () => {
    const auth = new ProxyAuthorization(LOGIN);
    const first = auth.answers('CONNECT', 'api.example.com:443');
    const digest = first.retry([DIGEST('n1')]);
    expect(digest).toMatch(/^Digest username="ada", realm="proxy", nonce="n1", uri="api.example.com:443", /);
    expect(counted(digest)).toBe('n1 00000001');
    const later = auth.answers('GET', 'http://api.example.com/x');
    expect(later.first).toMatch(/^Digest .*uri="http:\/\/api\.example\.com\/x"/);
    expect(counted(later.first)).toBe('n1 00000002');
  });

  it('a 407 offering Digest and Basic after the Basic: the strongest Digest is tried once, then the 407 stands', () => {
    const answers = new ProxyAuthorization(LOGIN).answers('CONNECT', 'h:443');
    const offered = [DIGEST('m', ', algorithm=MD5'), DIGEST('s', ', algorithm=SHA-256'), 'Basic realm="proxy"'];
    expect(answers.retry(offered)).toMatch(/^Digest .*nonce="s".*algorithm=SHA-256/);
    expect(answers.retry(offered)).toBeUndefined();
    expect(answers.refusedCredentials).toBe(true);
  });

  it('a remembered Digest nonce up front may have expired: one more answer to a fresh challenge, one more to a stale one, then none', () => {
    const auth = new ProxyAuthorization(LOGIN);
    auth.answers('CONNECT', 'h:443').retry([DIGEST('old')]);
    const answers = auth.answers('CONNECT', 'h:443');
    expect(counted(answers.first)).toBe('old 00000002');
    expect(counted(answers.retry([DIGEST('fresh')]))).toBe('fresh 00000001');
    expect(counted(answers.retry([DIGEST('newer', ', stale=true')]))).toBe('newer 00000001');
    expect(answers.retry([DIGEST('newest', ', stale=true')])).toBeUndefined();
    expect(answers.refusedCredentials).toBe(true);
  });

  it('a proxy that asked for Digest never gets Basic: a Basic-only 407 (maybe spoofed) stands, and Digest stays up front', () => {
    const auth = new ProxyAuthorization(LOGIN);
    auth.answers('CONNECT', 'h:443').retry([DIGEST('n')]);
    const answers = auth.answers('CONNECT', 'h:443');
    expect(answers.first).toMatch(/^Digest /);
    expect(answers.retry(['Basic realm="proxy"'])).toBeUndefined();
    expect(answers.refusedCredentials).toBe(false);
    expect(auth.answers('GET', 'http://h/x').first).toMatch(/^Digest .*nonce="n"/);
    // a Digest it cannot answer beside the Basic changes nothing
    expect(auth.answers('GET', 'http://h/y').retry(['Digest realm="p", nonce="m", algorithm=UNKNOWN', 'Basic realm="p"'])).toBeUndefined();
    expect(auth.answers('GET', 'http://h/z').first).toMatch(/^Digest .*nonce="n"/);
  });
});
