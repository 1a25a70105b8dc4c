import type { EntityManager, QBFilterQuery } from '@mikro-orm/postgresql';
import {
  EXPIRED_STATUS,
  SET_TO_EXPIRE_STATUS,
  type SubscriptionState,
  supersedes,
} from '../domain/subscription-state.js';
import { type AccountIdConstraint, accountIdsWhere } from './account-id-constraint.js';
import { AccountSubscriptionEntity, type AccountSubscriptionRow } from './entities/account-subscription.entity.js';
import { type RecordOutcome, recordLatestState, recordLatestStates } from './latest-state-store.js';

/** A subscription's state as its read-model row stores it, and the encoded Subscription reads serve. */
export interface SubscriptionStateRecord {
  state: SubscriptionState;
  snapshot: Uint8Array;
}

function latestSubscriptionState({ state, snapshot }: SubscriptionStateRecord, now: Date) {
  return {
    owner: { organizationId: state.organizationId, id: state.subscriptionId },
    fields: {
      account_id: state.accountId,
      status: state.status,
      collection_method: state.collectionMethod,
      last_modified_date: state.lastModifiedAt,
      version: state.version,
      created_date: state.createdAt,
      next_renewal_at: state.nextRenewalAt,
      snapshot: Buffer.from(snapshot),
      updated_at: now,
    },
    supersedes: (stored: AccountSubscriptionRow) => supersedes(stored, state),
  };
}

/**
 * Stores a subscription's state (with `snapshot`, the encoded Subscription account reads serve)
 * unless the stored one has the same or a greater version (domain rule `supersedes`).
 */
export function recordSubscriptionState(
  em: EntityManager,
  state: SubscriptionState,
  snapshot: Uint8Array,
  now: Date,
): Promise<RecordOutcome> {
  const latest = latestSubscriptionState({ state, snapshot }, now);
  return recordLatestState(em, AccountSubscriptionEntity, latest.owner, latest.fields, latest.supersedes);
}

/** recordSubscriptionState for a batch of states, as one after the other in list order (recordLatestStates). */
export function recordSubscriptionStates(
  em: EntityManager,
  records: readonly SubscriptionStateRecord[],
  now: Date,
): Promise<RecordOutcome[]> {
  return recordLatestStates(
    em,
    AccountSubscriptionEntity,
    records.map((record) => latestSubscriptionState(record, now)),
  );
}

export async function findSubscriptionState(
  em: EntityManager,
  organizationId: string,
  subscriptionId: string,
): Promise<AccountSubscriptionRow | null> {
  return em.findOne(AccountSubscriptionEntity, { organization_id: organizationId, id: subscriptionId });
}

/** Non-expired subscriptions of an account: while there are any, it cannot be deleted. */
export function countNonExpiredSubscriptions(
  em: EntityManager,
  organizationId: string,
  accountId: string,
): Promise<number> {
  return em.count(AccountSubscriptionEntity, {
    organization_id: organizationId,
    account_id: accountId,
    status: { $ne: EXPIRED_STATUS },
  });
}

/** The account list filters answered by this model (docs/api.md, accounts list filters). */
export interface SubscriptionFilter {
  subscription_status?: string;
  subscription_collection_method?: string;
  subscription_set_to_expire?: boolean;
}

/**
 * One account-id constraint per subscription filter asked for: `in` the accounts having a
 * matching subscription, or `notIn` for `subscription_set_to_expire=false` (accounts with no
 * subscription set to expire, including accounts with no subscriptions at all).
 */
export function subscriptionFilterConstraints(
  em: EntityManager,
  organizationId: string,
  filter: SubscriptionFilter,
): AccountIdConstraint[] {
  const constraints: AccountIdConstraint[] = [];
  const accountsWith = (where: QBFilterQuery<AccountSubscriptionRow>) =>
    accountIdsWhere(em, AccountSubscriptionEntity, organizationId, where);
  if (filter.subscription_status !== undefined) {
    constraints.push({ in: accountsWith({ status: filter.subscription_status }) });
  }
  if (filter.subscription_collection_method !== undefined) {
    constraints.push({
      in: accountsWith({
        collection_method: filter.subscription_collection_method,
        status: { $ne: EXPIRED_STATUS },
      }),
    });
  }
  if (filter.subscription_set_to_expire !== undefined) {
    const setToExpire = accountsWith({ status: SET_TO_EXPIRE_STATUS });
    constraints.push(filter.subscription_set_to_expire ? { in: setToExpire } : { notIn: setToExpire });
  }
  return constraints;
}
