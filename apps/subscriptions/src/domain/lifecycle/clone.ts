/**
 * A deep copy of the engine's plain data (objects, arrays, Dates, primitives), as structuredClone
 * makes it, without the serialize/deserialize round trip that made structuredClone a visible
 * share of a scheduler batch (one state and one snapshot per event for every subscription).
 * Anything else (a class instance) is copied as a plain object of its own enumerable fields,
 * which is also what structuredClone does. Unlike structuredClone, an object reached twice is
 * copied twice: the engine compares terms and contracts by value, never by identity.
 */
export function cloneData<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (Array.isArray(value)) return value.map((item) => cloneData(item)) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = cloneData((value as Record<string, unknown>)[key]);
  return copy as T;
}
