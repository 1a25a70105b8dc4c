/** Repeated query parameters count by their last value, like Django's QueryDict.get(). */
export function lastValue(value: unknown): string | undefined {
  if (Array.isArray(value)) return lastValue(value.at(-1));
  return typeof value === 'string' ? value : undefined;
}

/**
 * The query as one string per parameter, ready for a zod object of filters. Parameter names are the
 * client's, so the object has no prototype: `?__proto__=x` is a parameter like any other.
 */
export function lastValuesOf(query: Record<string, unknown>): Record<string, string> {
  const values: Record<string, string> = Object.create(null);
  for (const [key, value] of Object.entries(query)) {
    const last = lastValue(value);
    if (last !== undefined) values[key] = last;
  }
  return values;
}
