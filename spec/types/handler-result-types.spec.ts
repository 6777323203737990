/**
 * Type tests: with a result type, a handler in the same block may return only a value of that
 * type (`npm run typecheck` fails when one that should not compile does, or the other way).
 * The runtime part only keeps this a valid jest suite; the assertions are the compile-time ones.
 */
import { expect, it } from '@jest/globals';
import { z } from 'zod';
import { HttpBuilder, nullable, withResponse, type ConfigBlock, type FromServer, type HttpConfig, type WithResponse } from '../../lib/index.js';
import { Download } from '../../lib/download.js';

type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;

/** `exact<string>()(value)` compiles only when `value` is exactly a `string`. */
function exact<Expected>() {
  return <Actual>(value: Actual, ..._proof: Equal<Actual, Expected> extends true ? [] : ['type mismatch']): Actual => value;
}

class User {
  name = '';
}
class Account {
  constructor(readonly slug: string) {}
  describe(): string {
    return this.slug;
  }
}
const UserSchema = z.object({ id: z.number(), name: z.string() });
type UserData = z.infer<typeof UserSchema>;

// Never executed: only typechecked.
async function handlerResults(http: HttpBuilder, user: User): Promise<void> {
  // the case, and each handler of the block
  // @ts-expect-error a 404 handler that returns null under get(User): the call would resolve to null typed User
  await http.get(User, (c) => c.response.when(404, () => null));
  // @ts-expect-error a success handler's value must be a User
  await http.get(User, (c) => c.response.success(() => 'not a user'));
  // @ts-expect-error a failure handler's value must be a User
  await http.get(User, (c) => c.response.failure(() => undefined));
  // @ts-expect-error when('failure') is failure()
  await http.get(User, (c) => c.response.when('failure', () => null));
  // @ts-expect-error an exception handler's value is converted to the type too
  await http.get(User, (c) => c.response.exception(() => null));
  // @ts-expect-error an async handler that resolves to null
  await http.get(User, (c) => c.response.when(404, async () => Promise.resolve(null)));
  // @ts-expect-error a handler that returns nothing (the call would resolve to null)
  await http.get(User, (c) => c.response.success((fromServer) => void fromServer.statusCode));
  await http.get(User, function () {
    // @ts-expect-error the closure style: `this` is typed as the argument is
    this.response.when(404, () => null);
  });
  // values of the type compile, and a handler may be async or `this`-style itself
  exact<User>()(
    await http.get(User, (c) => {
      c.response.when(404, () => new User());
      c.response.success(async () => Promise.resolve(user));
      c.response.failure(() => ({ name: 'a plain object of its shape' }));
      c.response.exception(() => user);
    }),
  );
  exact<number>()(
    await http.get(Number, (c) => {
      c.response.success(function (this: FromServer) {
        return this.statusCode;
      });
    }),
  );
  // a handler that throws returns nothing, whatever the type
  await http.get(User, (c) =>
    c.response.when(410, () => {
      throw new Error('gone');
    }),
  );

  // every verb alike
  // @ts-expect-error post
  await http.post(User, (c) => c.response.failure(() => null));
  // @ts-expect-error put
  await http.put(String, (c) => c.response.success(() => 42));
  // @ts-expect-error delete
  await http.delete(Boolean, (c) => c.response.when(404, () => 'false'));
  // @ts-expect-error patch
  await http.patch(Date, (c) => c.response.success(() => '2024-01-01'));
  // @ts-expect-error options
  await http.options(Number, (c) => c.response.success(() => null));
  // @ts-expect-error the type comes from the first argument: a handler cannot widen it
  await http.get(String, (c) => c.response.success(() => 1));
  exact<Buffer>()(await http.get(Buffer, (c) => c.response.success((fromServer) => fromServer.bytes())));
  exact<string>()(await http.post(String, (c) => c.response.when(201, (fromServer) => fromServer.message)));
  // Object is `unknown`: any value, null included, is truthful
  exact<unknown>()(await http.get(Object, (c) => c.response.when(404, () => null)));

  // Standard Schema: the handler's value is what the schema validates (its input)
  // @ts-expect-error null skips validation: a schema that does not admit it refuses it
  await http.get(UserSchema, (c) => c.response.when(404, () => null));
  // @ts-expect-error not the schema's input
  await http.get(UserSchema, (c) => c.response.success(() => ({ id: '1' })));
  exact<UserData>()(await http.get(UserSchema, (c) => c.response.success(() => ({ id: 1, name: 'Ada' }))));
  exact<UserData | null>()(await http.get(UserSchema.nullable(), (c) => c.response.when(404, () => null)));
  const Count = z.string().transform((text) => Number(text));
  exact<number>()(await http.get(Count, (c) => c.response.success(() => '42')));
  // @ts-expect-error the schema validates the handler's value: its output (a number) is not a string
  await http.get(Count, (c) => c.response.success(() => 42));

  // the typed way to User | null: nullable(Type)
  exact<User | null>()(await http.get(nullable(User), (c) => c.response.when(404, () => null)));
  exact<User | null>()(await http.get(nullable(User), (c) => c.response.exception(() => null)));
  exact<string | null>()(await http.get(nullable(String)));
  exact<UserData | null>()(await http.get(nullable(UserSchema), (c) => c.response.when(404, () => null)));
  // @ts-expect-error nullable admits null, not anything
  await http.get(nullable(User), (c) => c.response.when(404, () => 'none'));
  // @ts-expect-error nullable wraps a result type
  nullable(42);

  // withResponse: response handlers give the body, the exception handler the whole result
  exact<WithResponse<User>>()(await http.get(withResponse(User), (c) => c.response.when(404, () => user)));
  // @ts-expect-error the body would be null under body: User
  await http.get(withResponse(User), (c) => c.response.when(404, () => null));
  // @ts-expect-error the exception handler's value is the result as it is: it must be the whole response
  await http.get(withResponse(User), (c) => c.response.exception(() => user));
  await http.get(withResponse(String), (c) => c.response.exception(() => ({ statusCode: 0, message: 'offline', headers: undefined as never, body: 'cached' })));
  exact<WithResponse<User | null>>()(await http.get(withResponse(nullable(User)), (c) => c.response.when(404, () => null)));
  exact<WithResponse<unknown>>()(await http.post(withResponse(), (c) => c.response.success(() => null)));

  // HEAD resolves to null without a body: its handlers may return null
  exact<string | null>()(await http.head(String, (c) => c.response.success(() => null)));
  exact<WithResponse<string | null>>()(await http.head(withResponse(String), (c) => c.response.failure(() => null)));
  // @ts-expect-error but only null or the type
  await http.head(String, (c) => c.response.success(() => 1));

  // without a result type, handlers return anything, and so does the call
  exact<unknown>()(await http.get((c) => c.response.when(404, () => null)));
  exact<unknown>()(
    await http.get(function () {
      this.response.success(() => 1);
    }),
  );

  // a class whose instances have methods: a plain object of its fields is not one
  // @ts-expect-error Account has describe(): build one (or return the parsed body through a mapper)
  await http.get(Account, (c) => c.response.success(() => ({ slug: 'acme' })));
  exact<Account>()(await http.get(Account, (c) => c.response.success(() => new Account('acme'))));

  // helpers that take a block's config take a typed one, and a block made elsewhere still fits:
  // the check is on the handlers written in the block the verb receives
  await http.get(User, (c) => Download.toFile(c, '/tmp/user.json')); // rejected at run time: a Download's result is its own
  const atUsers: ConfigBlock = (c: HttpConfig) => void (c.request.uri.path = '/users/1');
  exact<User>()(await http.get(User, atUsers));

  // a type cast away (as never) leaves the block unchecked, as the result is
  await http.get(User as never, (c) => c.response.exception(() => 'anything'));

  // client-level handlers cannot know a request's type: they are not checked against it
  HttpBuilder.configure((c) => c.response.failure(() => null));
  http.configure((c) => c.response.exception(() => 'fallback'));
}

it('the handler type tests compile (npm run typecheck runs them)', () => {
  expect(typeof handlerResults).toBe('function');
});
