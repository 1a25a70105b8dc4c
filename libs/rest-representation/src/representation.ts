/**
 * The representation version of every object this API returns (`schema`: "<date>-<name>"). The
 * date moves when a representation changes incompatibly, so clients can tell versions apart.
 */
export const REPRESENTATION_DATE = '2026-11-22';

export function tagged<T extends object>(model: string, body: T): T & { model: string; schema: string } {
  return { ...body, model, schema: `${REPRESENTATION_DATE}-${model}` };
}

/** proto3 `optional` fields read as undefined when unset; the REST contract says null. */
export const nullable = <T>(value: T | undefined): T | null => (value === undefined ? null : value);
