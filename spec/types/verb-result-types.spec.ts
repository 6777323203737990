/**
 * Type tests: `npm run typecheck` fails when a verb's inferred result type drifts. The runtime
 * part only keeps this a valid jest suite; the assertions are the compile-time ones.
 */
import { expect, it } from '@jest/globals';
import { z } from 'zod';
import { HttpBuilder, withResponse, type FromServer, type HttpConfig, type ResponseHeaders, type Verb } from '../../lib/index.js';
import { Stream, type ServerSentEvent } from '../../lib/stream.js';

type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;

/** `exact<string>()(value)` compiles only when `value` is exactly a `string`. */
function exact<Expected>() {
  return <Actual>(value: Actual, ..._proof: Equal<Actual, Expected> extends true ? [] : ['type mismatch']): Actual => value;
}

class User {
  name = '';
}
const UserSchema = z.object({ id: z.number(), name: z.string() });

// Never executed: only typechecked.
async function inferred(http: HttpBuilder): Promise<void> {
  exact<unknown>()(await http.get());
  exact<unknown>()(
    await http.post((c) => {
      exact<HttpConfig>()(c);
    }),
  );
  exact<unknown>()(
    await http.put(function () {
      exact<HttpConfig>()(this);
    }),
  );
  exact<string>()(await http.get(String, (c) => void (c.request.uri.path = '/x')));
  exact<number | null>()(await http.head(Number));
  exact<unknown>()(await http.head());
  // @ts-expect-error a HEAD response has no body: a string result may be null
  const headText: string = await http.head(String, (c) => void (c.request.uri.path = '/x'));
  void headText;
  // withResponse: status, reason phrase, headers and the typed body together
  const full = await http.get(withResponse(User), (c) => void (c.request.uri.path = '/users/1'));
  exact<number>()(full.statusCode);
  exact<string>()(full.message);
  exact<ResponseHeaders>()(full.headers);
  exact<User>()(full.body);
  exact<unknown>()((await http.post(withResponse())).body);
  exact<{ id: number; name: string }>()((await http.put(withResponse(UserSchema))).body);
  exact<string | null>()((await http.head(withResponse(String))).body);
  exact<boolean>()(await http.delete(Boolean));
  exact<Date>()(await http.get(Date));
  exact<Buffer>()(await http.get(Buffer));
  exact<Uint8Array<ArrayBuffer>>()(await http.get(Uint8Array));
  exact<unknown>()(await http.get(Object));
  exact<User>()(await http.options(User));
  exact<{ id: number; name: string }>()(await http.patch(UserSchema));
  await http.get((c) => {
    c.response.success((fromServer, body) => {
      exact<FromServer>()(fromServer);
      exact<unknown>()(body);
    });
  });
  // a verb picked at run time is still callable and typed
  const verb: 'get' | 'post' = Math.random() > 0.5 ? 'get' : 'post';
  exact<number>()(await http[verb](Number));
  const { get }: { get: Verb } = http;
  exact<string>()(await get(String));
  // paginate: the items, typed by the item type
  for await (const user of http.paginate(User, (c) => void (c.request.uri.path = '/users'))) exact<User>()(user);
  for await (const row of http.paginate(UserSchema)) exact<{ id: number; name: string }>()(row);
  for await (const item of http.paginate((c) => void (c.request.uri.path = '/users'))) exact<unknown>()(item);
  // a block that returns a Stream types the call's result as the stream's items
  exact<AsyncIterable<string>>()(await http.get((c) => Stream.lines(c)));
  exact<AsyncIterable<ServerSentEvent>>()(
    await http.get((c) => {
      c.request.uri.path = '/feed';
      return Stream.events(c);
    }),
  );
  exact<AsyncIterable<User>>()(await http.post((c) => Promise.resolve(Stream.ndjson(c, User))));
  exact<AsyncIterable<{ id: number; name: string }>>()(await http.get((c) => Stream.ndjson(c, UserSchema)));
  exact<AsyncIterable<unknown>>()(await http.get((c) => Stream.ndjson(c)));
  exact<AsyncIterable<string>>()(await http.head((c) => Stream.lines(c))); // empty, never null
  exact<unknown>()(await http.get((c) => void Stream.lines(c))); // a block that does not return it: untyped
  // @ts-expect-error a number is neither a block nor a result type
  await http.get(42);
  // @ts-expect-error the second argument must be a block
  await http.get(String, 'path');
  // @ts-expect-error the block's parameter is typed: a request has no `url` to set
  await http.get((c) => void (c.request.url = 'x'));
  // @ts-expect-error exact<> itself rejects a mismatch, so the checks above can fail
  exact<number>()(await http.get(String));
}

it('the type tests compile (npm run typecheck runs them)', () => {
  expect(typeof inferred).toBe('function');
});
