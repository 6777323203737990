import { expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import { EncodeError } from '../../lib/index.js';
import { conformance, type Kit } from './kit.js';

const OK = { headers: { 'Content-Type': 'text/plain' }, body: 'ok' };
const FORM = 'application/x-www-form-urlencoded';

/** A class whose data is in a getter and a private field: what Object.entries would not see. */
class Point {
  readonly #x = 1;
  get x(): number {
    return this.#x;
  }
}

/** POSTs `body` as `contentType` to /body; resolves to what it rejected with (or the result). */
function post(kit: Kit, contentType: string, body: unknown): Promise<unknown> {
  kit.server.expect({ method: 'POST', path: '/body', respond: OK });
  return kit
    .client()
    .post((c) => {
      c.request.uri.path = '/body';
      Object.assign(c.request, { contentType, body });
    })
    .catch((e: unknown) => e);
}

/** The bodies the server received, as text. */
const sent = (kit: Kit) => kit.server.requests.map((r) => r.body.toString());

/** `body` as `contentType` rejects with an EncodeError matching `message`, and nothing reaches the server. */
async function expectRefused(kit: Kit, contentType: string, body: unknown, message: RegExp): Promise<void> {
  const error = await post(kit, contentType, body);
  expect(error).toBeInstanceOf(EncodeError);
  expect((error as Error).message).toMatch(message);
  expect(kit.server.requests).toHaveLength(0);
}

conformance('form bodies (application/x-www-form-urlencoded)', (kit) => {
  it('a URLSearchParams goes as its pairs in order, repeated names kept, escaped as an object form is', async () => {
    const params = new URLSearchParams([
      ['q', 'café au lait'],
      ['tag', 'x'],
      ['a&b', '1=2'],
      ['tag', 'y'],
    ]);
    expect(await post(kit, FORM, params)).toBe('ok');
    expect(await post(kit, FORM, { q: 'café au lait', tag: ['x', 'y'], 'a&b': '1=2' })).toBe('ok');
    expect(sent(kit)).toEqual(['q=caf%C3%A9+au+lait&tag=x&a%26b=1%3D2&tag=y', 'q=caf%C3%A9+au+lait&tag=x&tag=y&a%26b=1%3D2']);
  });

  const refused: Array<[string, unknown, RegExp]> = [
    ['a Map', new Map([['a', '1']]), /x-www-form-urlencoded body must be .* not an instance of Map$/],
    ['a Date', new Date(0), /not an instance of Date$/],
    ['a class instance', new Point(), /not an instance of Point$/],
    ['an array', [['a', '1']], /not an array$/],
  ];
  for (const [what, body, message] of refused) {
    it(`${what} rejects with EncodeError naming it, before sending (not an empty body)`, async () => {
      await expectRefused(kit, FORM, body, message);
    });
  }
});

conformance('XML bodies that are not plain objects', (kit) => {
  const refused: Array<[string, unknown, RegExp]> = [
    ['a Map', new Map([['root', 'x']]), /an XML body must be a string or an object .* not an instance of Map$/],
    ['a Date', new Date(0), /not an instance of Date$/],
    ['a class instance', new Point(), /not an instance of Point$/],
  ];
  for (const [what, body, message] of refused) {
    it(`${what} rejects with EncodeError naming it, before sending (not <root/>)`, async () => {
      await expectRefused(kit, 'application/xml', body, message);
    });
  }

  it('an object with no prototype still goes as XML', async () => {
    const body = Object.assign(Object.create(null) as Record<string, unknown>, { note: 'hi' });
    expect(await post(kit, 'application/xml', body)).toBe('ok');
    expect(sent(kit)[0]).toMatch(/<note>hi<\/note>$/);
  });
});

conformance('CSV bodies of object rows with different keys, or of mixed rows', (kit) => {
  it('object rows get the union of their keys as the header, first-seen order, empty cells for missing keys', async () => {
    expect(await post(kit, 'text/csv', [{ a: 1 }, { a: 2, b: 3 }, { c: 'x,y', a: 4 }])).toBe('ok');
    expect(await post(kit, 'text/tab-separated-values', [{ a: 1 }, { b: 2 }])).toBe('ok');
    expect(sent(kit)).toEqual(['a,b,c\n1,,\n2,3,\n4,,"x,y"\n', 'a\tb\n1\t\n\t2\n']);
  });

  it('a row without a key named like an Object method gets an empty cell, not the method', async () => {
    expect(await post(kit, 'text/csv', [{ toString: 'x' }, { a: 1 }])).toBe('ok');
    expect(sent(kit)).toEqual(['toString,a\nx,\n,1\n']);
  });

  const refused: Array<[string, unknown[], RegExp]> = [
    [
      'an array row after object rows',
      [{ a: 1 }, ['x', 'y', 'z']],
      /^row 1 of the text\/csv body is an array, but row 0 is an object: the rows must be all arrays or all plain objects$/,
    ],
    ['an object row after array rows', [['a'], { a: 1 }], /^row 1 of the text\/csv body is an object, but row 0 is an array/],
    ['a null row', [{ a: 1 }, null], /^row 1 of the text\/csv body is null, but row 0 is an object/],
    ['a string row among array rows', [['a'], ['b'], 'c'], /^row 2 of the text\/csv body is a string, but row 0 is an array/],
    ['a Map as the first row', [new Map([['a', 1]])], /^row 0 of the text\/csv body is an instance of Map: the rows/],
    ['a Map among object rows', [{ a: 1 }, new Map([['a', 1]])], /^row 1 of the text\/csv body is an instance of Map, but row 0 is an object/],
  ];
  for (const [what, body, message] of refused) {
    it(`${what} rejects with EncodeError naming the row and what it is, before sending`, async () => {
      await expectRefused(kit, 'text/csv', body, message);
    });
  }
});

conformance('multipart/form-data with a body not built by multipart() nor a FormData', (kit) => {
  it('a Map rejects with EncodeError naming it with the right article', async () => {
    await expectRefused(kit, 'multipart/form-data', new Map([['a', 'b']]), /must be built with multipart\(\) or be a FormData, not an instance of Map$/);
  });

  it('a FormData sent as JSON rejects with EncodeError (its JSON would be {}), before sending', async () => {
    const form = new FormData();
    form.append('a', 'b');
    await expectRefused(kit, 'application/json', form, /^a FormData body needs content type 'multipart\/form-data'$/);
  });
});

conformance('text bodies in the charset their content type names', (kit) => {
  it('a charset named only in the content type encodes the text in it: the bytes are what the label says', async () => {
    await post(kit, 'text/plain; charset=iso-8859-1', 'café');
    await post(kit, 'text/plain; charset="UTF-16LE"', 'é');
    expect(kit.server.requests.map((r) => [...r.body])).toEqual([
      [0x63, 0x61, 0x66, 0xe9],
      [0xe9, 0x00],
    ]);
    expect(kit.server.requests.map((r) => r.headers['content-type'])).toEqual(['text/plain; charset=iso-8859-1', 'text/plain; charset="UTF-16LE"']);
  });

  it('a charset in the content type that cannot encode the text, or is unknown, is refused before sending', async () => {
    await expectRefused(kit, 'text/plain; charset=iso-8859-1', '5 €', /characters beyond ISO-8859-1, which charset 'iso-8859-1' cannot encode/);
    await expectRefused(kit, 'text/plain; charset=klingon', 'x', /charset 'klingon' \(request.charset, or the content type's\) is not supported/);
    await expectRefused(kit, 'text/plain; charset=us-ascii', 'café', /characters beyond ASCII, which charset 'us-ascii' cannot encode/);
  });

  it('US-ASCII text goes as it is, and an XML declaration names the charset the content type names', async () => {
    await post(kit, 'text/plain; charset=us-ascii', 'plain');
    await post(kit, 'application/xml; charset=iso-8859-1', { note: 'café' });
    const [ascii, xml] = kit.server.requests.map((r) => r.body);
    expect(ascii.toString()).toBe('plain');
    expect(xml.toString('latin1')).toMatch(/^<\?xml version="1.0" encoding="ISO-8859-1"[^>]*\?>\s*<note>café<\/note>$/);
  });
});

conformance('empty request bodies', (kit) => {
  // undici's fetch once left an HTTP/2 stream with a known-empty body open forever
  it('an empty string or zero bytes goes as an empty body with every method that takes one, and the call completes', async () => {
    const methods = ['post', 'put', 'patch', 'delete'] as const;
    for (const method of methods) {
      for (const body of ['', new Uint8Array(0)]) {
        kit.server.expect({ method: method.toUpperCase(), path: '/empty', respond: OK });
        const result = await kit.client()[method]((c) => {
          c.request.uri.path = '/empty';
          c.request.contentType = 'application/octet-stream';
          c.request.body = body;
        });
        expect(result).toBe('ok');
      }
    }
    expect(kit.server.requests.map((r) => `${r.method} ${r.body.length}`)).toEqual(methods.flatMap((m) => [`${m.toUpperCase()} 0`, `${m.toUpperCase()} 0`]));
  });

  // and the HTTP/2 writers of undici and its fetch left open one they know to be empty but do not hold in memory
  it('an empty Blob, or a stream with Content-Length: 0, goes as an empty body with every method that takes one, and the call completes', async () => {
    const methods = ['post', 'put', 'patch', 'delete'] as const;
    // a Blob states its size; a stream's length is the caller's Content-Length
    const bodies = [{ body: () => new Blob([]) }, { body: () => Readable.from([]), headers: { 'Content-Length': '0' } }];
    for (const method of methods) {
      for (const { body, headers } of bodies) {
        kit.server.expect({ method: method.toUpperCase(), path: '/empty', respond: OK });
        const result = await kit.client()[method]((c) => {
          c.request.uri.path = '/empty';
          c.request.contentType = 'application/octet-stream';
          Object.assign(c.request.headers, headers);
          c.request.body = body();
          c.execution.timeout = { total: 2000 }; // fails at once rather than at the test's timeout
        });
        expect(result).toBe('ok');
      }
    }
    expect(kit.server.requests.map((r) => `${r.method} ${r.body.length}`)).toEqual(methods.flatMap((m) => [`${m.toUpperCase()} 0`, `${m.toUpperCase()} 0`]));
    // still held to its word: a byte is one past the length
    kit.server.expect({ method: 'POST', path: '/empty', respond: OK });
    const longer = kit.client().post((c) => {
      c.request.uri.path = '/empty';
      c.request.headers['Content-Length'] = '0';
      c.request.body = Readable.from([Buffer.from('x')]);
    });
    await expect(longer).rejects.toThrow(new EncodeError('the request body is longer than its Content-Length (0 bytes)'));
  });
});
