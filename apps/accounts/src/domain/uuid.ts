import { isUuid } from '@billing/domain-kit';

/**
 * The uuids worth looking up, lower-cased and without repeats: text that is no uuid names
 * nothing (and must never reach a uuid column, where it would fail the whole query).
 */
export function lookupUuids(uuids: readonly string[]): string[] {
  return [...new Set(uuids.filter(isUuid).map((uuid) => uuid.toLowerCase()))];
}
