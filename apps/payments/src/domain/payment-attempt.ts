/** One charge of an invoice through a gateway (gaps.md §11); its uuid is the gateway's idempotency key. */
export interface PaymentAttemptView {
  uuid: string;
  invoice: string;
  account: string;
  payment_card: string;
  payment_gateway: string;
  amount: string;
  currency: string;
  number: number;
  outcome: AttemptOutcome;
  gateway_reference: string;
  decline_reason: string;
  attempted_at: Date;
  completed_at: Date | null;
}

/** pending: written before the gateway call, its outcome not known yet. */
export type AttemptOutcome = 'pending' | 'succeeded' | 'declined';

/** What a gateway answered to a charge. */
export type ChargeResult =
  | { outcome: 'succeeded'; reference: string }
  | { outcome: 'declined'; reference: string; reason: string };

/**
 * Where an invoice's card payment stands: `pending` while an attempt is due or running, `paid`,
 * `failed` once every attempt of the schedule was declined (the invoice is left open), `no_card`
 * when the account had no active card to charge (left open and reported).
 */
export type InvoicePaymentStatus = 'pending' | 'paid' | 'failed' | 'no_card';
