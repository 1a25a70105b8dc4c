import type { paymentsV1 } from '@billing/proto';
import type { PaymentAttemptView } from '../domain/payment-attempt.js';
import type { PaymentCardView } from '../domain/payment-card.js';

export function paymentCardMessage(card: PaymentCardView): paymentsV1.PaymentCard {
  return { ...card };
}

export function paymentAttemptMessage(attempt: PaymentAttemptView): paymentsV1.PaymentAttempt {
  const { completed_at, ...rest } = attempt;
  return { ...rest, ...(completed_at ? { completed_at } : {}) };
}
