import { describe, expect, it } from '@jest/globals';
import { STATUS_CODES } from 'node:http';
import { standardReason } from '../../lib/core/reason-phrase.js';

describe('standardReason: a table of its own, the same as node:http for every status node knows', () => {
  it("gives node's phrase for 100 to 599, but RFC 9110's two new names", () => {
    const differences: string[] = [];
    for (let status = 100; status <= 599; status++) {
      if (status === 413 || status === 422) continue;
      const expected = STATUS_CODES[status] ?? '';
      if (standardReason(status) !== expected) differences.push(`${status}: ${standardReason(status)} ≠ ${expected}`);
    }
    expect(differences).toEqual([]);
  });

  it('names 413 and 422 as RFC 9110 does', () => {
    expect(standardReason(413)).toBe('Content Too Large');
    expect(standardReason(422)).toBe('Unprocessable Content');
  });

  it("gives '' for a status without a phrase, and for what is no status", () => {
    expect(standardReason(299)).toBe('');
    expect(standardReason(99)).toBe('');
    expect(standardReason(200.5)).toBe('');
    expect(standardReason(NaN)).toBe('');
  });
});
