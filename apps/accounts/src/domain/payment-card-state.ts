/**
 * What the accounts service knows of a payment card (owned by the payments service): its latest
 * state as carried by `payments.payment_card.activated|deactivated`, for `paymentcard_set` and the
 * `active_payment_method` filter.
 */

import { isUuid } from '@billing/domain-kit';

export interface PaymentCardState {
  cardId: string;
  organizationId: string;
  accountId: string;
  active: boolean;
  /** 1 on creation, +1 per change: only a strictly greater version replaces a stored state. */
  version: number;
  createdDate: Date;
}

/** The fields of a `PaymentCardChanged` payload's card this model reads. */
export interface PaymentCardFacts {
  uuid: string;
  account: string;
  active: boolean;
  version: number;
  created_date?: Date | undefined;
}

export class InvalidPaymentCardEvent extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidPaymentCardEvent';
  }
}

export function paymentCardStateOf(organizationId: string, facts: PaymentCardFacts | undefined): PaymentCardState {
  if (!facts) throw new InvalidPaymentCardEvent('the payment card event carries no card');
  const problems: string[] = [];
  if (!isUuid(organizationId)) problems.push(`organization "${organizationId}" is not a uuid`);
  if (!isUuid(facts.uuid)) problems.push(`uuid "${facts.uuid}" is not a uuid`);
  if (!isUuid(facts.account)) problems.push(`account "${facts.account}" is not a uuid`);
  if (!Number.isInteger(facts.version) || facts.version < 1) problems.push('version is missing');
  if (!facts.created_date) problems.push('created_date is missing');
  if (problems.length > 0 || !facts.created_date) {
    throw new InvalidPaymentCardEvent(`Unusable payment card ${facts.uuid}: ${problems.join('; ')}`);
  }
  return {
    cardId: facts.uuid.toLowerCase(),
    organizationId,
    accountId: facts.account.toLowerCase(),
    active: facts.active,
    version: facts.version,
    createdDate: facts.created_date,
  };
}
