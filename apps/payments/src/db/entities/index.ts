import { AuditLogEntry } from '@billing/db';
import { InboxMessage, OutboxMessage } from '@billing/events';
import { CardRegistrationEntity } from './card-registration.entity.js';
import { InvoicePaymentEntity } from './invoice-payment.entity.js';
import { PaymentAttemptEntity } from './payment-attempt.entity.js';
import { PaymentCardEntity } from './payment-card.entity.js';
import { PaymentMailEntity } from './payment-mail.entity.js';

/** Every table of the payments schema (migrations are generated from this list). */
export const paymentsEntities = [
  PaymentCardEntity,
  CardRegistrationEntity,
  InvoicePaymentEntity,
  PaymentAttemptEntity,
  PaymentMailEntity,
  AuditLogEntry,
  OutboxMessage,
  InboxMessage,
];
