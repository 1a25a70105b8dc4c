const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A uuid in its canonical 8-4-4-4-12 form, in either case (what a Postgres uuid column accepts):
 * text that is not one names no object, and must never reach a uuid column, where it would fail
 * the whole query instead of finding nothing.
 */
export function isUuid(text: string): boolean {
  return UUID.test(text);
}
