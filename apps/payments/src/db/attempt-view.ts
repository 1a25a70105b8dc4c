import type { AttemptOutcome, PaymentAttemptView } from '../domain/payment-attempt.js';
import type { PaymentAttemptRow } from './entities/payment-attempt.entity.js';

export function paymentAttemptView(row: PaymentAttemptRow): PaymentAttemptView {
  return {
    uuid: row.id,
    invoice: row.invoice_id,
    account: row.account_id,
    payment_card: row.card_id,
    payment_gateway: row.gateway,
    amount: row.amount,
    currency: row.currency,
    number: row.number,
    outcome: row.outcome as AttemptOutcome,
    gateway_reference: row.gateway_reference,
    decline_reason: row.decline_reason,
    attempted_at: row.attempted_at,
    completed_at: row.completed_at ?? null,
  };
}
