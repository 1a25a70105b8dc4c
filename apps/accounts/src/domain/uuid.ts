import { createHash } from 'node:crypto';
import { isUuid } from '@billing/domain-kit';

/**
 * The uuids worth looking up, lower-cased and without repeats: text that is no uuid names
 * nothing (and must never reach a uuid column, where it would fail the whole query).
 */
export function lookupUuids(uuids: readonly string[]): string[] {
  return [...new Set(uuids.filter(isUuid).map((uuid) => uuid.toLowerCase()))];
}

/**
 * RFC 9562 name-based uuid (version 5, SHA-1): the same namespace and name always give the same
 * uuid, so data imported without ids gets stable ones.
 */
export function nameBasedUuid(namespace: string, name: string): string {
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
