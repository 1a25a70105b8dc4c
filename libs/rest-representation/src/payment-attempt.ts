import { type CurrencyCode, formatAmount, money } from '@billing/money';
import type { paymentEventsV1 } from '@billing/proto';
import { tagged } from './representation.js';

const iso = (value: Date | undefined): string | null => (value ? value.toISOString() : null);

/**
 * A card payment attempt and its outcome: the `data` of the payment.declined webhook (the spec
 * shows no payment object; docs/api.md "Events" describes this one). `amount` in the invoice's
 * currency, written to its minor unit.
 */
export function presentPaymentAttempt(event: paymentEventsV1.PaymentAttemptChanged) {
  const attempt = event.attempt!;
  return tagged('payment_attempt', {
    uuid: attempt.uuid,
    invoice: attempt.invoice,
    // As the invoice shows it: a number (the event carries it as text; empty before numbering).
    invoice_number: /^\d+$/.test(event.invoice_number) ? Number(event.invoice_number) : null,
    account: attempt.account,
    payment_card: attempt.payment_card,
    payment_gateway: attempt.payment_gateway,
    amount: formatAmount(money(attempt.amount), attempt.currency as CurrencyCode),
    currency: attempt.currency,
    attempt: attempt.number,
    outcome: attempt.outcome,
    decline_reason: attempt.decline_reason,
    attempt_date: iso(attempt.attempted_at) as string,
    retry_scheduled: event.retry_scheduled,
  });
}
