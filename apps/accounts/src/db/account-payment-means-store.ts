import type { EntityManager, QBFilterQuery } from '@mikro-orm/postgresql';
import { type PaymentMeans, type PaymentMethod, paymentMethodCondition } from '../domain/payment-means.js';
import type { AccountIdConstraint } from './account-id-constraint.js';
import { AccountPaymentMeansEntity, type AccountPaymentMeansRow } from './entities/account-payment-means.entity.js';

/** The account list filters answered by this model (docs/api.md, accounts list filters). */
export interface PaymentMeansFilter {
  active_payment_method?: PaymentMethod;
  registered_for_direct_debit?: boolean;
}

const whereMeans = (means: PaymentMeans): QBFilterQuery<AccountPaymentMeansRow> => ({
  has_active_payment_card: means.hasActivePaymentCard,
  registered_for_direct_debit: means.registeredForDirectDebit,
});

/**
 * One account-id constraint per filter asked for. An account without a row has no card and no
 * direct debit (NO_PAYMENT_MEANS), so a value that such accounts have is answered as "every account
 * but those whose row says otherwise" (`notIn`), any other as "those whose row says so" (`in`).
 */
export function paymentMeansFilterConstraints(
  em: EntityManager,
  organizationId: string,
  filter: PaymentMeansFilter,
): AccountIdConstraint[] {
  const constraints: AccountIdConstraint[] = [];
  const accountsWith = (where: QBFilterQuery<AccountPaymentMeansRow>) =>
    em
      .createQueryBuilder(AccountPaymentMeansEntity, 'account_payment_means')
      .select('account_id')
      .where({ organization_id: organizationId })
      .andWhere(where)
      .toRaw();
  if (filter.active_payment_method !== undefined) {
    const condition = paymentMethodCondition(filter.active_payment_method);
    const giving: QBFilterQuery<AccountPaymentMeansRow> = { $or: condition.means.map(whereMeans) };
    constraints.push(
      condition.includesAccountsWithoutMeans ? { notIn: accountsWith({ $not: giving }) } : { in: accountsWith(giving) },
    );
  }
  if (filter.registered_for_direct_debit !== undefined) {
    const registered = accountsWith({ registered_for_direct_debit: true });
    constraints.push(filter.registered_for_direct_debit ? { in: registered } : { notIn: registered });
  }
  return constraints;
}
