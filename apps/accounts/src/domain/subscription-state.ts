/**
 * What the accounts service knows of a subscription (owned by the subscriptions service): its
 * latest state as carried by `subscription.changed`, kept to answer the account list filters and
 * the "no delete while subscribed" rule.
 */

import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '@billing/reference-data';

export { SUBSCRIPTION_STATUSES, type SubscriptionStatus };

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
  /** The subscription's own `last_modified_date`: what orders its states. */
  lastModifiedAt: Date;
}

/** The fields of a `subscription.changed` payload's subscription this model reads. */
export interface SubscriptionFacts {
  uuid: string;
  account: string;
  status: string;
  collection_method: string;
  last_modified_date?: Date | undefined;
}

/** An event that cannot be applied whatever happens next: never worth retrying. */
export class InvalidSubscriptionEvent extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidSubscriptionEvent';
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Checks what the filters and the delete rule rely on; anything else in the payload is ignored. */
export function subscriptionStateOf(organizationId: string, facts: SubscriptionFacts | undefined): SubscriptionState {
  if (!facts) throw new InvalidSubscriptionEvent('subscription.changed carries no subscription');
  const problems: string[] = [];
  if (!UUID.test(organizationId)) problems.push(`organization "${organizationId}" is not a uuid`);
  if (!UUID.test(facts.uuid)) problems.push(`uuid "${facts.uuid}" is not a uuid`);
  if (!UUID.test(facts.account)) problems.push(`account "${facts.account}" is not a uuid`);
  if (!isSubscriptionStatus(facts.status))
    problems.push(`status "${facts.status}" is not one of ${SUBSCRIPTION_STATUSES}`);
  if (!facts.collection_method) problems.push('collection_method is empty');
  const lastModifiedAt = facts.last_modified_date;
  if (!lastModifiedAt || Number.isNaN(lastModifiedAt.getTime())) problems.push('last_modified_date is missing');
  if (problems.length > 0 || !lastModifiedAt || !isSubscriptionStatus(facts.status)) {
    throw new InvalidSubscriptionEvent(`Unusable subscription ${facts.uuid}: ${problems.join('; ')}`);
  }
  return {
    subscriptionId: facts.uuid.toLowerCase(),
    organizationId,
    accountId: facts.account.toLowerCase(),
    status: facts.status,
    collectionMethod: facts.collection_method,
    lastModifiedAt,
  };
}

/**
 * Whether an incoming state replaces the stored one. Events may arrive out of order (a redelivery
 * after a failure overtakes later messages), so a state modified before the stored one is ignored.
 * Equal `last_modified_date`s (several changes in one instant, frequent under a test clock) are
 * ordered by arrival: the durable consumer receives a subscription's events in the order the
 * producer's outbox published them, so the later one wins. (The one case this cannot order: a
 * tie whose first event failed transiently and is redelivered after the second; the envelope
 * carries no sequence to tell them apart.)
 */
export function supersedes(
  stored: Pick<SubscriptionState, 'lastModifiedAt'>,
  incoming: Pick<SubscriptionState, 'lastModifiedAt'>,
): boolean {
  return incoming.lastModifiedAt.getTime() >= stored.lastModifiedAt.getTime();
}

function isSubscriptionStatus(status: string): status is SubscriptionStatus {
  return (SUBSCRIPTION_STATUSES as readonly string[]).includes(status);
}
