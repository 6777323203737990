/**
 * `target[name] = value`, defined rather than assigned: a name from the network such as
 * `__proto__` stays an ordinary own property instead of replacing the object's prototype.
 *
 * @example
 * setOwn(params, '__proto__', 'x'); // Object.keys(params) includes '__proto__'
 */
export function setOwn<T>(target: Record<string, T>, name: string, value: T): void {
  Object.defineProperty(target, name, { value, writable: true, enumerable: true, configurable: true });
}
