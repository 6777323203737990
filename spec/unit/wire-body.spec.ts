import { describe, expect, it } from '@jest/globals';
import { bufferedBody, bufferedText, inMemory, streamedBody, utf8TextOf } from '../../lib/model/backend.js';

describe('wire bodies in memory', () => {
  it('a text body makes its bytes only when asked, once, and is in memory (replayable) before that', async () => {
    const made: string[] = [];
    const encode = (text: string) => {
      made.push(text);
      return Buffer.from(text, 'utf8');
    };
    const body = bufferedText('café', 5, encode);
    expect(inMemory(body)).toBe(true);
    expect(utf8TextOf(body)).toBe('café');
    expect(body.length).toBe(5);
    expect(made).toEqual([]);
    expect(Buffer.from(body.bytes!).toString('utf8')).toBe('café');
    expect(body.bytes).toBe(body.bytes);
    const chunks: Uint8Array[] = [];
    for await (const chunk of body) chunks.push(chunk);
    expect(chunks).toEqual([body.bytes]);
    expect(made).toEqual(['café']);
  });

  it('bytes are in memory as they are; a stream is not, and has no text', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(inMemory(bufferedBody(bytes))).toBe(true);
    expect(bufferedBody(bytes).bytes).toBe(bytes);
    expect(utf8TextOf(bufferedBody(bytes))).toBeUndefined();
    const stream = streamedBody(ReadableStream.from([bytes]), 3);
    expect(inMemory(stream)).toBe(false);
    expect(utf8TextOf(stream)).toBeUndefined();
    // a custom body with bytes of its own counts as in memory too
    expect(inMemory({ ...stream, bytes })).toBe(true);
  });

  it('a copy of a body carries its bytes and iterator only when given them explicitly, as WireBody.bytes says', async () => {
    const body = bufferedText('hi', 2, (text) => Buffer.from(text, 'utf8'));
    expect(inMemory({ ...body })).toBe(false); // a getter and a method of the class: a spread takes neither
    const copy = { ...body, bytes: body.bytes, [Symbol.asyncIterator]: () => body[Symbol.asyncIterator]() };
    expect(inMemory(copy)).toBe(true);
    expect(utf8TextOf(copy)).toBeUndefined(); // a copy's bytes are what goes out
    const chunks: Uint8Array[] = [];
    for await (const chunk of copy) chunks.push(chunk);
    expect(Buffer.concat(chunks).toString('utf8')).toBe('hi');
  });
});
