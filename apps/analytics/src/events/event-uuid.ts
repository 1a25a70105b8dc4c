import { canonicalUuid } from '@billing/domain-kit';

/**
 * An id an event names, in Postgres' form (lower case, 8-4-4-4-12). Batches key subscriptions,
 * accounts, plans and invoices by these strings in memory, where the one-by-one path lets Postgres
 * compare uuids: an id written in capitals must name the same object in both. Text that is no
 * uuid is kept as it came, to fail where it did.
 */
export function eventUuid(text: string): string {
  return canonicalUuid(text) ?? text;
}
