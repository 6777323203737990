import { expect, it } from '@jest/globals';
import { z } from 'zod';
import { gzipSync } from 'node:zlib';
import { nullable, ResultTypeError, withResponse } from '../../lib/index.js';
import { pipeline } from './kit.js';

const JSON_BODY = ['{"alpha":"bravo","charlie":42}', { 'Content-Type': 'application/json' }] as const;

class Widget {
  alpha = '';
  charlie = 0;
  describe(): string {
    return `${this.alpha}/${this.charlie}`;
  }
}

class Money {
  private constructor(readonly cents: number) {}
  static fromJSON(value: unknown): Money {
    return new Money(Math.round(Number((value as { amount: string }).amount) * 100));
  }
}

pipeline('result types', (kit) => {
  const respond = (path: string, body: string, contentType = 'text/plain') => kit.mock.on('GET', path).reply(200, body, { 'Content-Type': contentType });
  const get = <T>(type: T, path: string) => kit.client().get(type as never, (c) => void (c.request.uri.path = path)) as Promise<unknown>;

  it('String gives the body as text and skips the JSON parser', async () => {
    respond('/json', '{"a":1}', 'application/json');
    let handlerBody: unknown;
    const text = await kit.client().get(String, (c) => {
      c.request.uri.path = '/json';
      c.response.success((_fs, body) => {
        handlerBody = body;
        return body as string; // the text, for a String result
      });
    });
    expect(text).toBe('{"a":1}');
    expect(handlerBody).toBe('{"a":1}');
  });

  it('Buffer and Uint8Array give the raw decompressed bytes', async () => {
    kit.mock.on('GET', '/bytes').persist().reply(200, gzipSync('{"a":1}'), { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
    const buffer = await get(Buffer, '/bytes');
    const bytes = await get(Uint8Array, '/bytes');
    expect(Buffer.isBuffer(buffer)).toBe(true);
    expect((buffer as Buffer).toString()).toBe('{"a":1}');
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(bytes as Uint8Array).toString()).toBe('{"a":1}');
  });

  it('Object gives the parsed body as is', async () => {
    kit.mock.on('GET', '/json').reply(200, ...JSON_BODY);
    expect(await get(Object, '/json')).toEqual({ alpha: 'bravo', charlie: 42 });
  });

  it('Number, Boolean and Date convert from text', async () => {
    respond('/n', ' 42.5 ');
    respond('/b', 'true');
    respond('/d', '2016-08-25T14:43:00Z');
    expect(await get(Number, '/n')).toBe(42.5);
    expect(await get(Boolean, '/b')).toBe(true);
    expect(await get(Date, '/d')).toEqual(new Date('2016-08-25T14:43:00Z'));
  });

  it('Number converts a JSON number', async () => {
    respond('/json-n', '7', 'application/json');
    expect(await get(Number, '/json-n')).toBe(7);
  });

  it('a class gets an instance with the JSON fields', async () => {
    kit.mock.on('GET', '/json').reply(200, ...JSON_BODY);
    const widget = await kit.client().get(Widget, (c) => void (c.request.uri.path = '/json'));
    expect(widget).toBeInstanceOf(Widget);
    expect(widget.describe()).toBe('bravo/42');
  });

  it('a class with a static fromJSON is built by it', async () => {
    respond('/money', '{"amount":"12.34"}', 'application/json');
    const money = await kit.client().get(Money, (c) => void (c.request.uri.path = '/money'));
    expect(money).toBeInstanceOf(Money);
    expect(money.cents).toBe(1234);
  });

  it('a Standard Schema (zod) validates and types the result', async () => {
    kit.mock.on('GET', '/json').reply(200, ...JSON_BODY);
    const schema = z.object({ alpha: z.string(), charlie: z.number().int() });
    const value = await kit.client().get(schema, (c) => void (c.request.uri.path = '/json'));
    expect(value).toEqual({ alpha: 'bravo', charlie: 42 });
  });

  it('a failing schema rejects with ResultTypeError listing the issues', async () => {
    kit.mock.on('GET', '/json').reply(200, ...JSON_BODY);
    const schema = z.object({ alpha: z.number(), missing: z.string() });
    const error = await kit
      .client()
      .get(schema, (c) => void (c.request.uri.path = '/json'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResultTypeError);
    expect((error as Error).message).toMatch(/zod.*alpha: .*; missing: /);
  });

  it('the conversion applies to what the handler returns', async () => {
    respond('/text', 'ok-text');
    const length = await kit.client().get(Number, (c) => {
      c.request.uri.path = '/text';
      c.response.success((_fs, body) => String(body).length);
    });
    expect(length).toBe(7);
  });

  it('an array cannot become a class instance', async () => {
    respond('/array', '[1,2]', 'application/json');
    await expect(get(Widget, '/array')).rejects.toThrow(/an array.*cannot be converted to Widget/);
  });

  it('nullable(Type): a handler may answer null, and any other result is converted to Type', async () => {
    kit.mock.on('GET', '/widgets/1').reply(200, ...JSON_BODY);
    kit.mock.on('GET', '/widgets/2').reply(404, { error: 'no such widget' });
    const find = (id: number) =>
      kit.client().get(nullable(Widget), (c) => {
        c.request.uri.path = `/widgets/${id}`;
        c.response.when(404, () => null);
      });
    const found = await find(1);
    expect(found).toBeInstanceOf(Widget);
    expect(found?.describe()).toBe('bravo/42');
    expect(await find(2)).toBeNull();
  });

  it('withResponse(nullable(Type)): the status, and a null body from the handler', async () => {
    kit.mock.on('GET', '/widgets/2').reply(404, { error: 'no such widget' });
    const result = await kit.client().get(withResponse(nullable(Widget)), (c) => {
      c.request.uri.path = '/widgets/2';
      c.response.when(404, () => null);
    });
    expect([result.statusCode, result.body]).toEqual([404, null]);
  });

  it('HEAD with a result type resolves to null', async () => {
    kit.mock.on('HEAD', '/head').reply(200, undefined, { 'Content-Type': 'application/json' });
    expect(await kit.client().head(Widget, (c) => void (c.request.uri.path = '/head'))).toBeNull();
  });
});
