const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Postgres' form: the one nearly every id already comes in. */
const CANONICAL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A uuid in its canonical 8-4-4-4-12 form, in either case (what a Postgres uuid column accepts):
 * text that is not one names no object, and must never reach a uuid column, where it would fail
 * the whole query instead of finding nothing.
 */
export function isUuid(text: string): boolean {
  return UUID.test(text);
}

/**
 * The canonical form (8-4-4-4-12, lower case, what Postgres shows) of a uuid written in a form
 * Postgres or Django REST Framework accept (either case, hyphens anywhere or none, braces, DRF's
 * `urn:uuid:` prefix); null for text that is not one.
 */
export function canonicalUuid(text: string): string | null {
  // Returned as it is, without the copies below: analytics shows every id of its batches through here.
  if (CANONICAL.test(text)) return text;
  const hex = text
    .toLowerCase()
    .replace(/^urn:uuid:/, '')
    .replace(/^\{(.*)\}$/, '$1')
    .replaceAll('-', '');
  if (!/^[0-9a-f]{32}$/.test(hex)) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * canonicalUuid, or the text as it came when it is no uuid in any form: for ids a service keys in
 * memory where Postgres would compare them as uuids (an id in capitals names the same object), while
 * text that is no uuid still fails where a uuid column gets it.
 */
export function canonicalUuidOrText(text: string): string {
  return canonicalUuid(text) ?? text;
}
