// Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP-date, nothing else.
import { describe, expect, it } from '@jest/globals';
import { parseHttpDate } from '../../lib/core/http-date.js';
import { retryAfterDelay } from '../../lib/pipeline/retry-after.js';

const NOW = Date.UTC(1994, 10, 6, 8, 49, 30); // Sun, 06 Nov 1994 08:49:30 GMT

describe('retryAfterDelay', () => {
  it('reads delay-seconds as whole seconds', () => {
    expect(['0', '1', '120', ' 7 '].map((value) => retryAfterDelay(value, NOW))).toEqual([0, 1000, 120_000, 7000]);
  });

  it('reads each of the three HTTP-date forms, as a wait from now (0 for a date past)', () => {
    const in7s = ['Sun, 06 Nov 1994 08:49:37 GMT', 'Sunday, 06-Nov-94 08:49:37 GMT', 'Sun Nov  6 08:49:37 1994'];
    expect(in7s.map((value) => retryAfterDelay(value, NOW))).toEqual([7000, 7000, 7000]);
    expect(retryAfterDelay('Sat, 05 Nov 1994 08:49:37 GMT', NOW)).toBe(0);
  });

  it('ignores what is neither (the backoff applies): signs, fractions, partial dates, other date formats', () => {
    const junk = ['-1', '+2', '1.5', '1e3', '0x10', '5 May', 'soon', '', 'Sun, 06 Nov 1994', '1994-11-06T08:49:37Z', 'Sun, 06 Nov 1994 08:49:37 +0000'];
    expect(junk.map((value) => retryAfterDelay(value, NOW))).toEqual(junk.map(() => undefined));
    expect(retryAfterDelay(undefined, NOW)).toBeUndefined();
  });
});

describe('parseHttpDate', () => {
  const at = Date.UTC(1994, 10, 6, 8, 49, 37);

  it('IMF-fixdate, RFC 850 and asctime give the same instant, in GMT whatever the local zone', () => {
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT', NOW)).toBe(at);
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', NOW)).toBe(at);
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994', NOW)).toBe(at);
    expect(parseHttpDate('Sun Nov 16 08:49:37 1994', NOW)).toBe(Date.UTC(1994, 10, 16, 8, 49, 37));
  });

  it("RFC 850's two-digit year: more than 50 years ahead is the last century's", () => {
    const in2030 = Date.UTC(2030, 0, 1);
    expect(parseHttpDate('Friday, 01-Jan-79 00:00:00 GMT', in2030)).toBe(Date.UTC(2079, 0, 1));
    expect(parseHttpDate('Monday, 01-Jan-81 00:00:00 GMT', in2030)).toBe(Date.UTC(1981, 0, 1));
  });

  it('refuses what the grammar does not allow: case, spacing, zone, out-of-range fields', () => {
    const bad = [
      'sun, 06 Nov 1994 08:49:37 GMT',
      'Sun, 06 nov 1994 08:49:37 GMT',
      'Sun,  06 Nov 1994 08:49:37 GMT',
      'Sun, 6 Nov 1994 08:49:37 GMT',
      'Sun, 06 Nov 1994 08:49:37 UTC',
      'Sun, 06 Nov 94 08:49:37 GMT',
      'Sun, 32 Nov 1994 08:49:37 GMT',
      'Sun, 06 Nov 1994 24:00:00 GMT',
      'Sun, 06 Nov 1994 08:60:00 GMT',
      'Sun Nov 6 08:49:37 1994',
      'Sunday, 06-Nov-1994 08:49:37 GMT',
      'Sun, 06 Nov 1994 08:49:37 GMT x',
    ];
    expect(bad.map((value) => parseHttpDate(value, NOW))).toEqual(bad.map(() => undefined));
  });
});
