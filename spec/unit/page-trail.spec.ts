import { describe, expect, it } from '@jest/globals';
import type { RequestRecord } from '../../lib/model/request-record.js';
import { PageTrail } from '../../lib/page-trail.js';
import { retainedBytes } from '../support/retained-bytes.js';

/** A page's request as the walk sees it. */
function record(url: string, headers: Record<string, string> = {}, body?: unknown, contentType?: string): RequestRecord {
  return { method: 'GET', url, headers, body, contentType, charset: undefined, context: () => undefined };
}

describe('PageTrail', () => {
  it('keeps a fixed-size hash per page: neither a large continuation token nor a credential stays in memory', () => {
    const trail = new PageTrail();
    const before = retainedBytes();
    for (let page = 1; page <= 200; page++) {
      const token = String(page).padEnd(100_000, 'x'); // 100 KB a page: 20 MB for 200 pages if kept
      trail.visit(record('https://api.example.com/items', { Authorization: 'Bearer s3cret', 'X-Continuation': token }), page);
    }
    expect(retainedBytes() - before).toBeLessThan(1_000_000);
  });

  it('tells pages apart by URL, headers, and a body held in memory with its content type; a streamed body is never a loop', () => {
    const trail = new PageTrail();
    const url = 'https://api.example.com/_search/scroll';
    trail.visit(record(url, {}, { scroll_id: 1 }, 'application/json'), 1);
    trail.visit(record(url, {}, { scroll_id: 2 }, 'application/json'), 2);
    trail.visit(record(url, {}, '{"scroll_id":1}', 'text/plain'), 3);
    trail.visit(record(url, {}, new TextEncoder().encode('{"scroll_id":1}'), 'application/json'), 4);
    trail.visit(record(`${url}#again`, { 'X-Page': '1' }, { scroll_id: 1 }, 'application/json'), 5);
    const stream = new ReadableStream();
    trail.visit(record(url, {}, stream), 6);
    trail.visit(record(url, {}, stream), 7);
    expect(() => trail.visit(record(`${url}#other`, {}, { scroll_id: 2 }, 'application/json'), 8)).toThrow(
      expect.objectContaining({ code: 'ERR_PAGINATION_LOOP', message: expect.stringContaining(`${url} was already fetched as page 2`) }),
    );
    // the same JSON, given as a string: the same request
    expect(() => trail.visit(record(url, {}, '{"scroll_id":1}', 'application/json'), 9)).toThrow(/already fetched as page 1 /);
  });
});
