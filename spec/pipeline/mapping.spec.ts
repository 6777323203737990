import { expect, it } from '@jest/globals';
import { z } from 'zod';
import { ConfigError, ResultTypeError, type StandardSchemaV1 } from '../../lib/index.js';
import { Mapping, type ClassType, type Mapper } from '../../lib/mapping.js';
import { pipeline } from './kit.js';

const FIELDS = '{"alpha":"bravo","charlie":42}';
const ACME = 'application/vnd.acme+json';

class Widget {
  alpha = '';
  charlie = 0;
  describe(): string {
    return `${this.alpha}/${this.charlie}`;
  }
}

/** A class only a constructor can build: its fields are private, set from a record. */
class Sealed {
  readonly #alpha: string;
  constructor(record: { alpha: string; charlie: number }) {
    this.#alpha = `${record.alpha}:${record.charlie}`;
  }
  get label(): string {
    return this.#alpha;
  }
}

/** A mapper that builds through the constructor and records what it was asked. */
function recordingMapper(): Mapper & { reads: Array<[unknown, ClassType]>; writes: unknown[] } {
  const reads: Array<[unknown, ClassType]> = [];
  const writes: unknown[] = [];
  return {
    reads,
    writes,
    read(value, type) {
      reads.push([value, type]);
      return new (type as new (record: unknown) => unknown)(value);
    },
    write(value) {
      writes.push(value);
      return JSON.stringify({ mapped: value });
    },
  };
}

pipeline('mapping module', (kit) => {
  const routes = () => {
    kit.mock.on('GET', '/json').persist().reply(200, FIELDS, { 'Content-Type': 'application/json' });
    kit.mock.on('GET', '/jackson').persist().reply(200, FIELDS, { 'Content-Type': ACME });
  };

  it('Mapping.use: /json and /jackson resolve to Widget instances', async () => {
    routes();
    const http = kit.client((c) => Mapping.use(c, ['application/json', ACME]));
    for (const path of ['/json', '/jackson']) {
      const widget = await http.get(Widget, (c) => void (c.request.uri.path = path));
      expect(widget).toBeInstanceOf(Widget);
      expect(widget.describe()).toBe('bravo/42');
    }
  });

  it('Mapping.use with no types maps application/json', async () => {
    routes();
    const widget = await kit.client((c) => Mapping.use(c)).get(Widget, (c) => void (c.request.uri.path = '/json'));
    expect(widget).toBeInstanceOf(Widget);
    expect(widget.alpha).toBe('bravo');
  });

  it('Mapping.use parses a type the built-in parsers read as bytes as JSON', async () => {
    kit.mock.on('GET', '/acme').reply(200, FIELDS, { 'Content-Type': 'application/x-acme' });
    const widget = await kit.client().get(Widget, (c) => {
      c.request.uri.path = '/acme';
      Mapping.use(c, 'application/x-acme');
    });
    expect(widget).toBeInstanceOf(Widget);
    expect(widget.describe()).toBe('bravo/42');
  });

  it('a mapper in context (c.context) builds /json and /jackson results', async () => {
    routes();
    const mapper = recordingMapper();
    const http = kit.client((c) => c.context(['application/json', ACME], Mapping.MAPPER_ID, mapper));
    for (const path of ['/json', '/jackson']) {
      const sealed = await http.get(Sealed, (c) => void (c.request.uri.path = path));
      expect(sealed).toBeInstanceOf(Sealed);
      expect(sealed.label).toBe('bravo:42');
    }
    expect(mapper.reads).toEqual([
      [{ alpha: 'bravo', charlie: 42 }, Sealed],
      [{ alpha: 'bravo', charlie: 42 }, Sealed],
    ]);
  });

  it('Mapping.mapper supplies a user mapper at request level, over the client one', async () => {
    routes();
    const clientMapper = recordingMapper();
    const requestMapper = recordingMapper();
    const http = kit.client((c) => Mapping.mapper(c, clientMapper, [ACME]));
    const sealed = await http.get(Sealed, (c) => {
      c.request.uri.path = '/jackson';
      Mapping.mapper(c, requestMapper, ACME);
    });
    expect(sealed.label).toBe('bravo:42');
    expect(requestMapper.reads).toHaveLength(1);
    expect(clientMapper.reads).toHaveLength(0);
  });

  it('a mapper applies only to its content types', async () => {
    routes();
    const mapper = recordingMapper();
    const widget = await kit.client((c) => Mapping.mapper(c, mapper, ACME)).get(Widget, (c) => void (c.request.uri.path = '/json'));
    expect(widget).toBeInstanceOf(Widget);
    expect(mapper.reads).toHaveLength(0);
  });

  it('a mapper is not asked for built-in result types', async () => {
    routes();
    const mapper = recordingMapper();
    const http = kit.client((c) => Mapping.mapper(c, mapper));
    expect(await http.get(Object, (c) => void (c.request.uri.path = '/json'))).toEqual({ alpha: 'bravo', charlie: 42 });
    expect(mapper.reads).toHaveLength(0);
  });

  it("Mapping.use writes request bodies with the mapper's write", async () => {
    const seen = kit.mock.on('POST', '/echo');
    seen.reply(200, FIELDS, { 'Content-Type': 'application/json' });
    const mapper = recordingMapper();
    const http = kit.client((c) => {
      Mapping.use(c);
      Mapping.mapper(c, mapper);
    });
    const widget = await http.post(Sealed, (c) => {
      c.request.uri.path = '/echo';
      c.request.contentType = 'application/json';
      c.request.body = { one: 1 };
    });
    expect(widget.label).toBe('bravo:42');
    expect(seen.calls).toBe(1);
    expect(mapper.writes).toEqual([{ one: 1 }]);
    expect(kit.mock.calls.at(-1)?.body.toString()).toBe('{"mapped":{"one":1}}');
  });

  it('a Standard Schema (zod) result type validates a mapped response', async () => {
    routes();
    const schema = z.object({ alpha: z.string(), charlie: z.number().int() });
    const http = kit.client((c) => Mapping.use(c, ['application/json', ACME]));
    expect(await http.get(schema, (c) => void (c.request.uri.path = '/jackson'))).toEqual({ alpha: 'bravo', charlie: 42 });
  });

  it('a failing Standard Schema rejects with ResultTypeError listing the issues', async () => {
    routes();
    const schema = z.object({ alpha: z.number(), missing: z.string() });
    const error = await kit
      .client((c) => Mapping.use(c))
      .get(schema, (c) => void (c.request.uri.path = '/json'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResultTypeError);
    expect((error as Error).message).toMatch(/zod.*alpha: .*; missing: /);
  });

  // a hand-made schema may hand back anything: its mistakes are named, never a TypeError from reading them
  it('a schema whose validate returns no Standard Schema result, or odd issues, rejects with ResultTypeError naming it', async () => {
    const schema = (validate: () => unknown) => ({ '~standard': { version: 1, vendor: 'handmade', validate } }) as unknown as StandardSchemaV1;
    const cases: Array<[() => unknown, RegExp]> = [
      [() => undefined, /the schema \(handmade\) returned undefined, not a Standard Schema result/],
      [() => ({ issues: 'bad' }), /the schema \(handmade\) returned an object whose issues are not a list/],
      [() => ({ issues: [{ message: 'wrong', path: [null, { key: 'a' }, 3] }] }), /does not match the schema \(handmade\): null\.a\.3: wrong$/],
    ];
    const http = kit.client((c) => Mapping.use(c));
    for (const [validate, message] of cases) {
      routes();
      const error = await http.get(schema(validate), (c) => void (c.request.uri.path = '/json')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResultTypeError);
      expect((error as Error).message).toMatch(message);
    }
  });

  it('the default mapper rejects what cannot become an instance with ResultTypeError', async () => {
    kit.mock.on('GET', '/array').reply(200, '[1,2]', { 'Content-Type': 'application/json' });
    const http = kit.client((c) => Mapping.mapper(c, Mapping.defaultMapper));
    await expect(http.get(Widget, (c) => void (c.request.uri.path = '/array'))).rejects.toThrow(ResultTypeError);
  });

  it('a malformed mapper or content type is a ConfigError', () => {
    kit.client((c) => {
      expect(() => Mapping.mapper(c, { read: () => null } as unknown as Mapper)).toThrow(ConfigError);
      expect(() => Mapping.use(c, ['json'])).toThrow(ConfigError);
    });
  });
});
