import { UsageError } from './failure.js';

/** One step of a nested name: an object key, an array index, or `null` to append (`[]`). */
type Step = string | number | null;

// httpie's largest index: a typo such as a[99999999] must not make a huge array
const MAX_INDEX = 100_000;

/**
 * The steps of an item name in httpie's nested JSON syntax: `a[b][0][]` → `['a', 'b', 0, null]`;
 * `[]` alone makes the body an array. A name without brackets is one key.
 *
 * @throws {UsageError} for brackets that do not close, or text after them (`x[y]z`).
 * @example
 * pathOf('user[tags][]', 'user[tags][]=x'); // ['user', 'tags', null]
 */
export function pathOf(name: string, text: string): Step[] {
  const match = /^([^[\]]*)((?:\[[^[\]]*\])*)$/.exec(name);
  if (match === null) throw new UsageError(`request item '${text}': a nested name is name[key][index][] (brackets around each step)`);
  const steps: Step[] = [...match[2].matchAll(/\[([^[\]]*)\]/g)].map(([, key]) => (key === '' ? null : /^\d+$/.test(key) ? Number(key) : key));
  return match[1] === '' && steps.length > 0 ? steps : [match[1], ...steps];
}

/**
 * `container` with `value` set at `steps` (containers made as needed), as httpie 3 builds a JSON
 * body: a key on an array, or an index on an object or a value, is an error; setting a name
 * again replaces its value.
 *
 * @throws {UsageError} naming the item for a step that does not fit what is there.
 * @example
 * setPath(setPath(undefined, ['a', null], 1, 'a[]:=1'), ['a', null], 2, 'a[]:=2'); // { a: [1, 2] }
 */
export function setPath(container: unknown, steps: readonly Step[], value: unknown, text: string): unknown {
  if (steps.length === 0) return value;
  const [step, ...rest] = steps;
  if (typeof step === 'string') {
    // no prototype: a key such as __proto__ is an ordinary key (JSON.stringify writes it)
    const object = container ?? (Object.create(null) as Record<string, unknown>);
    if (typeof object !== 'object' || object === null || Array.isArray(object)) throw misfit(text, `the key '${step}'`, container);
    const record = object as Record<string, unknown>;
    record[step] = setPath(record[step], rest, value, text);
    return record;
  }
  const array = container ?? [];
  if (!Array.isArray(array)) throw misfit(text, step === null ? 'appending ([])' : `the index [${step}]`, container);
  const index = step ?? array.length;
  if (index > MAX_INDEX) throw new UsageError(`request item '${text}': index ${index} is over ${MAX_INDEX}`);
  while (array.length < index) array.push(null);
  array[index] = setPath(array[index], rest, value, text);
  return array;
}

function misfit(text: string, step: string, found: unknown): UsageError {
  const kind = Array.isArray(found) ? 'an array' : found === null ? 'null' : typeof found === 'object' ? 'an object' : `a ${typeof found}`;
  return new UsageError(`request item '${text}': ${step} does not fit ${kind} set by an earlier item`);
}
