/**
 * What the accounts service knows of a subscription (owned by the subscriptions service): its
 * latest state as carried by `subscription.changed`, kept to answer the account list filters and
 * the "no delete while subscribed" rule, and (as a stored snapshot) embedded in account reads.
 */

import { isUuid } from '@billing/domain-kit';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '@billing/reference-data';

/** The one status after which a subscription no longer binds its account (deletion, collection). */
export const EXPIRED_STATUS: SubscriptionStatus = 'expired';
/** A cancellation is set: the subscription runs to its end and then expires. */
export const SET_TO_EXPIRE_STATUS: SubscriptionStatus = 'not_renewing';

export interface SubscriptionState {
  subscriptionId: string;
  organizationId: string;
  accountId: string;
  status: SubscriptionStatus;
  collectionMethod: string;
  lastModifiedAt: Date;
  /** The subscription's `version` (1 on creation, +1 per committed change): what orders its states. */
  version: number;
  /** The subscription's `created_date`: account reads list subscriptions oldest first. */
  createdAt: Date | null;
  /** Its next renewal, when it has one: the renew_subscription_soon webhook's notice is due before it. */
  nextRenewalAt: Date | null;
}

/** The fields of a `subscription.changed` payload's subscription this model reads. */
export interface SubscriptionFacts {
  uuid: string;
  account: string;
  status: string;
  collection_method: string;
  last_modified_date?: Date | undefined;
  created_date?: Date | undefined;
  next_renewal_date?: Date | undefined;
  version: number;
}

/** An event that cannot be applied whatever happens next: never worth retrying. */
export class InvalidSubscriptionEvent extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidSubscriptionEvent';
  }
}

/** Checks what the filters, the delete rule and the ordering rely on; the rest is only stored. */
export function subscriptionStateOf(organizationId: string, facts: SubscriptionFacts | undefined): SubscriptionState {
  if (!facts) throw new InvalidSubscriptionEvent('subscription.changed carries no subscription');
  const problems: string[] = [];
  if (!isUuid(organizationId)) problems.push(`organization "${organizationId}" is not a uuid`);
  if (!isUuid(facts.uuid)) problems.push(`uuid "${facts.uuid}" is not a uuid`);
  if (!isUuid(facts.account)) problems.push(`account "${facts.account}" is not a uuid`);
  if (!isSubscriptionStatus(facts.status))
    problems.push(`status "${facts.status}" is not one of ${SUBSCRIPTION_STATUSES}`);
  if (!facts.collection_method) problems.push('collection_method is empty');
  const lastModifiedAt = facts.last_modified_date;
  if (!lastModifiedAt || Number.isNaN(lastModifiedAt.getTime())) problems.push('last_modified_date is missing');
  // A producer that does not set the version yet would leave every later state looking equal to
  // the first one stored: refused loudly rather than silently frozen.
  if (!Number.isInteger(facts.version) || facts.version < 1) problems.push('version is missing');
  if (problems.length > 0 || !lastModifiedAt || !isSubscriptionStatus(facts.status)) {
    throw new InvalidSubscriptionEvent(`Unusable subscription ${facts.uuid}: ${problems.join('; ')}`);
  }
  const createdAt = facts.created_date && !Number.isNaN(facts.created_date.getTime()) ? facts.created_date : null;
  const nextRenewalAt =
    facts.next_renewal_date && !Number.isNaN(facts.next_renewal_date.getTime()) ? facts.next_renewal_date : null;
  return {
    subscriptionId: facts.uuid.toLowerCase(),
    organizationId,
    accountId: facts.account.toLowerCase(),
    status: facts.status,
    collectionMethod: facts.collection_method,
    lastModifiedAt,
    version: facts.version,
    createdAt,
    nextRenewalAt,
  };
}

/**
 * The charges an expiring subscription's event names (they hold its account's delete back until
 * invoiced), lower-cased and each once; a name that is not a uuid makes the event unusable.
 */
export function chargeIdsOf(charges: readonly string[]): string[] {
  const bad = charges.find((id) => !isUuid(id));
  if (bad !== undefined) throw new InvalidSubscriptionEvent(`charge "${bad}" is not a uuid`);
  return [...new Set(charges.map((id) => id.toLowerCase()))];
}

/**
 * Whether an incoming state replaces the stored one. States arrive by two paths (the producer
 * hands them over right after its commit, and JetStream delivers them again, possibly redelivered
 * out of order after a failure), so arrival order means nothing: the subscription's version does.
 * Only a strictly greater version replaces; an equal one is the same state arriving again.
 */
export function supersedes(
  stored: Pick<SubscriptionState, 'version'>,
  incoming: Pick<SubscriptionState, 'version'>,
): boolean {
  return incoming.version > stored.version;
}

function isSubscriptionStatus(status: string): status is SubscriptionStatus {
  return (SUBSCRIPTION_STATUSES as readonly string[]).includes(status);
}
