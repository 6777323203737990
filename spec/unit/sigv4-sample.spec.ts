// The SigV4 signer of docs/hooks.md, taken from the doc itself (one copy, the one readers see)
// and checked on vectors of AWS's Signature Version 4 test suite (aws-sig-v4-test-suite).
import { describe, expect, it } from '@jest/globals';
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { Attempt } from '../../lib/index.js';
import { scanMarkdown } from '../support/doc-samples.js';

type SignV4 = (attempt: Attempt, key: Record<string, string>, now?: Date) => void;

/** `signV4` and its helpers as the doc's sample declares them: the code from `interface AwsKey` up to the usage. */
function signerFromDocs(): SignV4 {
  const file = fileURLToPath(new URL('../../docs/hooks.md', import.meta.url));
  const sample = scanMarkdown(readFileSync(file, 'utf8'), 'docs/hooks.md').samples.find((s) => s.code.includes('function signV4('));
  if (sample === undefined) throw new Error('docs/hooks.md has no sample declaring signV4');
  const start = sample.code.indexOf('interface AwsKey');
  const end = sample.code.indexOf('const aws: AwsKey');
  expect([start, end].every((at) => at >= 0)).toBe(true);
  const js = ts.transpileModule(sample.code.slice(start, end), { compilerOptions: { target: ts.ScriptTarget.ES2022 } }).outputText;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the doc's own code, compiled above
  const declare = new Function('createHash', 'createHmac', `${js}\nreturn signV4;`) as (hash: typeof createHash, mac: typeof createHmac) => SignV4;
  return declare(createHash, createHmac);
}

const KEY = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', region: 'us-east-1', service: 'service' };
const NOW = new Date('2015-08-30T12:36:00Z');

function signed(method: string, url: string): Attempt {
  const parsed = new URL(url);
  const attempt: Attempt = { method, url, target: `${parsed.pathname}${parsed.search}`, headers: {}, body: undefined };
  signerFromDocs()(attempt, KEY, NOW);
  return attempt;
}

describe('the SigV4 sample of docs/hooks.md', () => {
  it('get-vanilla: GET / on example.amazonaws.com', () => {
    const attempt = signed('GET', 'https://example.amazonaws.com/');
    expect(attempt.headers).toEqual({
      'X-Amz-Date': '20150830T123600Z',
      Authorization:
        'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    });
  });

  it('post-vanilla: POST /', () => {
    expect(signed('POST', 'https://example.amazonaws.com/').headers.Authorization).toMatch(
      /Signature=5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b$/,
    );
  });

  it('get-vanilla-query-order-key-case: the query sorted by name', () => {
    expect(signed('GET', 'https://example.amazonaws.com/?Param2=value2&Param1=value1').headers.Authorization).toMatch(
      /Signature=b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500$/,
    );
  });

  it('for S3, X-Amz-Content-Sha256 is sent and signed (the empty body’s hash)', () => {
    const attempt: Attempt = { method: 'GET', url: 'https://bucket.s3.amazonaws.com/key', target: '/key', headers: {}, body: undefined };
    signerFromDocs()(attempt, { ...KEY, service: 's3' }, NOW);
    expect(attempt.headers['X-Amz-Content-Sha256']).toBe(createHash('sha256').update('').digest('hex'));
    expect(attempt.headers.Authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20150830\/us-east-1\/s3\/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
  });
});
