/*
 * Counts and members keyed by a service's strings (an error type, a tool, a label): own members only, set as data, so
 * `constructor`, `toString` or `__proto__` count like any other name and never reach Object.prototype.
 */

/** The member `key` of `rec` set to `value` as its own, whatever the name. */
export function setOwn<T>(rec: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(rec, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Adds `n` to the count `key` of `rec` (0 where it has none of its own). */
export function addCount(rec: Record<string, number>, key: string, n: number): void {
  setOwn(rec, key, (Object.hasOwn(rec, key) ? rec[key] : 0) + n);
}
