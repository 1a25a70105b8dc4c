import { randomUUID } from 'node:crypto';
import { isUuid } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { PAYMENT_GATEWAYS } from '@billing/reference-data';
import { type ChangeScope, requireOrganization, runChange } from '@billing/runtime';
import { LockMode } from '@mikro-orm/postgresql';
import { paymentCardView } from '../db/card-view.js';
import { PaymentCardEntity } from '../db/entities/payment-card.entity.js';
import { UnknownCardToken } from '../domain/gateway-adapter.js';
import type { CardDetails, PaymentCardListFilter, PaymentCardView } from '../domain/payment-card.js';
import { publishPaymentCardEvent } from '../events/card-events.js';
import type { PaymentsDeps } from './deps.js';
import { gatewayFor } from './gateway-for.js';

export interface NewPaymentCard {
  account: string;
  token: string;
  gateway: string;
}

const change = <T>(deps: PaymentsDeps, context: RequestContext, fn: (scope: ChangeScope) => Promise<T>) =>
  runChange(deps, 'payments', context, fn);

/** DRF's answer for a related object that does not exist (or is another organization's). */
export const invalidAccount = (account: string) =>
  AppError.invalidField('account', `Invalid pk "${account}" - object does not exist.`);

/**
 * POST /paymentcards/ (gaps.md §11): asks the gateway for the card behind the token and stores what
 * it says (brand, last four digits, expiry, holder, its id), never a card number; publishes
 * payment_card.activated.
 */
export async function createPaymentCard(
  deps: PaymentsDeps,
  context: RequestContext,
  input: NewPaymentCard,
): Promise<PaymentCardView> {
  if (!(PAYMENT_GATEWAYS as readonly string[]).includes(input.gateway)) {
    throw AppError.invalidField('gateway', `"${input.gateway}" is not a valid choice.`);
  }
  if (!isUuid(input.account) || !(await deps.directory.account(context, input.account))) {
    throw invalidAccount(input.account);
  }
  const adapter = await gatewayFor(deps, context, input.gateway);
  let details: CardDetails;
  try {
    details = await adapter.retrieveCard(input.token);
  } catch (error) {
    if (error instanceof UnknownCardToken) throw AppError.invalidField('token', error.message);
    throw error;
  }
  return change(deps, context, (scope) => storeCard(scope, input.account.toLowerCase(), input.gateway, details));
}

/** Stores a registered card and publishes payment_card.activated, in the caller's change. */
export async function storeCard(
  scope: ChangeScope,
  accountId: string,
  gateway: string,
  details: CardDetails,
): Promise<PaymentCardView> {
  const row = scope.em.create(PaymentCardEntity, {
    id: randomUUID(),
    organization_id: scope.organizationId,
    account_id: accountId,
    active: true,
    brand: details.brand,
    last4: details.last4,
    month: details.month,
    year: details.year,
    name: details.name,
    gateway,
    gateway_id: details.gatewayId,
    gateway_customer: details.gatewayCustomer,
    created_at: scope.now,
    updated_at: scope.now,
    version: 1,
    expiry_notice_month: null,
  });
  await scope.em.flush();
  const card = paymentCardView(row);
  scope.audit('payment_card.create', 'payment_card', row.id, { gateway });
  publishPaymentCardEvent(scope, 'payment_card.activated', card);
  return card;
}

export async function getPaymentCard(
  deps: PaymentsDeps,
  context: RequestContext,
  uuid: string,
): Promise<PaymentCardView> {
  if (!isUuid(uuid)) throw AppError.notFound();
  const row = await deps.orm.em
    .fork()
    .findOne(PaymentCardEntity, { organization_id: requireOrganization(context), id: uuid.toLowerCase() });
  if (!row) throw AppError.notFound();
  return paymentCardView(row);
}

export async function listPaymentCards(
  deps: PaymentsDeps,
  context: RequestContext,
  filter: PaymentCardListFilter,
): Promise<{ count: number; cards: PaymentCardView[] }> {
  const where = {
    organization_id: requireOrganization(context),
    ...(filter.account !== undefined
      ? { account_id: isUuid(filter.account) ? filter.account.toLowerCase() : null }
      : {}),
    ...(filter.active !== undefined ? { active: filter.active } : {}),
  };
  const direction = filter.ordering === 'created_date' ? 'asc' : 'desc';
  const [rows, count] = await deps.orm.em.fork().findAndCount(PaymentCardEntity, where, {
    orderBy: [{ created_at: direction }, { id: direction }],
    offset: filter.offset,
    limit: filter.limit,
  });
  return { count, cards: rows.map(paymentCardView) };
}

/**
 * POST /paymentcards/{uuid}/disable/: `active` false here only, the gateway's record is unchanged
 * (api-spec). Disabling a disabled card changes nothing and publishes nothing.
 */
export async function disablePaymentCard(
  deps: PaymentsDeps,
  context: RequestContext,
  uuid: string,
): Promise<PaymentCardView> {
  if (!isUuid(uuid)) throw AppError.notFound();
  return change(deps, context, async (scope) => {
    const row = await scope.em.findOne(
      PaymentCardEntity,
      { organization_id: scope.organizationId, id: uuid.toLowerCase() },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!row) throw AppError.notFound();
    if (!row.active) return paymentCardView(row);
    scope.em.assign(row, { active: false, updated_at: scope.now, version: row.version + 1 });
    await scope.em.flush();
    const card = paymentCardView(row);
    scope.audit('payment_card.disable', 'payment_card', row.id);
    publishPaymentCardEvent(scope, 'payment_card.deactivated', card);
    return card;
  });
}
