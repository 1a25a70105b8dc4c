import { canonicalUuid } from '@billing/domain-kit';

/**
 * An id an event names, in Postgres' form (lower case, 8-4-4-4-12). Batches key organizations,
 * subscriptions, accounts, invoices and churn reasons by these strings in memory, where the
 * one-by-one path lets Postgres compare uuids: an id written in capitals must name the same object
 * in both. Plans and terms too, so that a change compares them as Postgres would. canonicalUuid's
 * other forms (no hyphens, braces, `urn:uuid:`) are read as the uuid they write; text that is no
 * uuid in any form is kept as it came, to fail where it did.
 */
export function eventUuid(text: string): string {
  return canonicalUuid(text) ?? text;
}
