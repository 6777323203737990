import { basicAuthorization } from '../../lib/auth/credentials.js';
import { digestAuthorization, type DigestChallenge } from '../../lib/auth/digest.js';
import { digestResponse } from '../../lib/auth/digest-math.js';
import { decodeText, encodeText } from '../../lib/core/charset.js';
import { standardReason } from '../../lib/core/reason-phrase.js';
import { parseNoProxy } from '../../lib/proxy/no-proxy.js';
import { convertResult } from '../../lib/result/convert.js';
import { rawBodyKind } from '../../lib/result/result-type.js';

// What the core's byte and text helpers compute, as JSON: spec/unit/web-core-runtime.spec.ts
// compares it with and without a Buffer global.
const TEXT = 'Grüße €5 👍';
const CHALLENGE: DigestChallenge = { realm: 'r', nonce: 'n', opaque: undefined, algorithm: 'SHA-512-256', qop: 'auth', userhash: true, domain: undefined };

export function probeWebCore(): unknown {
  const noProxy = parseNoProxy('bücher.example, [::1]:8080, 10.0.0.0/8', 'NO_PROXY');
  const digest = { username: 'Jäsøn', realm: 'café', password: 'pw', method: 'GET', uri: '/', nonce: 'n', nc: '00000001', cnonce: 'c', qop: 'auth' } as const;
  const answer = { user: 'u', password: 'p', method: 'POST', uri: '/', nc: 1, body: Uint8Array.of(1, 2, 3) };
  return {
    basic: basicAuthorization({ user: 'Jäsøn', password: 'p:w' }),
    digests: (['MD5', 'SHA-256-sess', 'SHA-512-256', 'SHA-512'] as const).map((algorithm) => digestResponse({ ...digest, algorithm })),
    userhash: /username="([^"]+)"/.exec(digestAuthorization(CHALLENGE, answer).header)?.[1],
    cnonce: /cnonce="([0-9a-f]{32})"/.test(digestAuthorization({ ...CHALLENGE, qop: 'auth-int' }, answer).header),
    utf8: [...encodeText(TEXT, undefined)],
    utf16: [...encodeText(TEXT, 'utf-16le')],
    latin1: [...encodeText('café', 'iso-8859-1')],
    ascii: [...encodeText('plain', 'us-ascii')],
    decoded: decodeText(new TextEncoder().encode(`\uFEFF${TEXT}`), 'utf-8'),
    reasons: [standardReason(404), standardReason(422), standardReason(299)],
    noProxy: [noProxy.matches('xn--bcher-kva.example', 443), noProxy.matches('[::1]', 8080), noProxy.matches('10.1.2.3', 80), noProxy.matches('example', 80)],
    asString: convertResult(Uint8Array.of(0x68, 0x69), String),
    asStringWithBom: convertResult(Uint8Array.of(0xef, 0xbb, 0xbf, 0x68), String), // a String result keeps the BOM, as Buffer's toString() did
    asBytes: Object.prototype.toString.call(convertResult('hi', Uint8Array)),
    bytesKind: rawBodyKind(Uint8Array),
  };
}
