import type { EntityManager } from '@mikro-orm/postgresql';
import type { PaymentCardState } from '../domain/payment-card-state.js';
import { AccountPaymentCardEntity } from './entities/account-payment-card.entity.js';
import { AccountPaymentMeansEntity } from './entities/account-payment-means.entity.js';
import { type RecordOutcome, recordLatestState } from './latest-state-store.js';

/**
 * Stores a card's state unless a stored one has the same or a greater version, then sets the
 * account's has_active_payment_card from all its cards, in the caller's transaction. The account's
 * means row is written (and locked) first, so two cards of one account changing at once are
 * counted one after the other.
 */
export async function recordPaymentCardState(
  em: EntityManager,
  state: PaymentCardState,
  snapshot: Uint8Array,
  now: Date,
): Promise<RecordOutcome> {
  await em
    .createQueryBuilder(AccountPaymentMeansEntity)
    .insert({
      account_id: state.accountId,
      organization_id: state.organizationId,
      has_active_payment_card: false,
      registered_for_direct_debit: false,
      updated_at: now,
    })
    .onConflict('account_id')
    .ignore()
    .execute('run');
  const [means] = await em.execute<{ organization_id: string }[]>(
    'select organization_id from account_payment_means where account_id = ? for update',
    [state.accountId],
  );
  if (means?.organization_id !== state.organizationId) return 'other-organization';
  const outcome = await recordLatestState(
    em,
    AccountPaymentCardEntity,
    { organizationId: state.organizationId, id: state.cardId },
    {
      account_id: state.accountId,
      active: state.active,
      version: state.version,
      created_date: state.createdDate,
      snapshot: Buffer.from(snapshot),
      updated_at: now,
    },
    (stored) => state.version > stored.version,
  );
  if (outcome === 'inserted' || outcome === 'updated') {
    await em.execute(
      `update account_payment_means m
          set has_active_payment_card = exists (select 1 from account_payment_card c
                where c.organization_id = m.organization_id and c.account_id = m.account_id and c.active),
              updated_at = ?
        where m.account_id = ? and m.organization_id = ?`,
      [now, state.accountId, state.organizationId],
    );
  }
  return outcome;
}
