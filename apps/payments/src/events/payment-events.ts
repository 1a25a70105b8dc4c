import { encodeMessage, paymentEventsV1 } from '@billing/proto';
import type { ChangeScope } from '@billing/runtime';
import type { PaymentAttemptView } from '../domain/payment-attempt.js';
import { paymentAttemptMessage } from '../grpc/card-mapper.js';

/**
 * Subjects payments.payment.* (stream PAYMENTS): succeeded (analytics records payment_made,
 * webhooks), declined (webhooks payment.declined; `retry_scheduled` says whether dunning goes on).
 */
export type PaymentEventType = 'payment.succeeded' | 'payment.declined';

export function publishPaymentEvent(
  scope: ChangeScope,
  eventType: PaymentEventType,
  attempt: PaymentAttemptView,
  details: { retryScheduled: boolean; invoiceNumber: string },
): void {
  scope.publish({
    eventType,
    aggregateType: 'invoice',
    aggregateId: attempt.invoice,
    payloadType: 'billing.events.v1.PaymentAttemptChanged',
    payload: encodeMessage(paymentEventsV1.PaymentAttemptChanged, {
      attempt: paymentAttemptMessage(attempt),
      retry_scheduled: details.retryScheduled,
      invoice_number: details.invoiceNumber,
    }),
  });
}
