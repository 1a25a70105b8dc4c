import { AuditLogEntry } from '@billing/db';
import { InboxMessage, OutboxMessage } from '@billing/events';
import { exportEntities } from '@billing/exports';
import { CreditApplicationEntity } from './credit-application.entity.js';
import { DraftInvoiceLineEntity } from './draft-invoice-line.entity.js';
import { EinvoiceDeliveryEntity } from './einvoice-delivery.entity.js';
import { InvoiceEntity } from './invoice.entity.js';
import { InvoiceLineEntity } from './invoice-line.entity.js';
import { InvoiceNumberCounterEntity } from './invoice-number-counter.entity.js';
import { InvoiceReadModelBackfillEntity } from './invoice-read-model-backfill.entity.js';
import { InvoiceReminderEntity } from './invoice-reminder.entity.js';
import { InvoicedChargeEntity } from './invoiced-charge.entity.js';
import { MailJobEntity } from './mail-job.entity.js';
import { RejectedChargeEntity } from './rejected-charge.entity.js';

/** Every table of the invoicing schema (migrations are generated from this list). */
export const invoicingEntities = [
  InvoiceEntity,
  InvoiceLineEntity,
  InvoiceNumberCounterEntity,
  InvoicedChargeEntity,
  RejectedChargeEntity,
  InvoiceReadModelBackfillEntity,
  CreditApplicationEntity,
  MailJobEntity,
  EinvoiceDeliveryEntity,
  InvoiceReminderEntity,
  DraftInvoiceLineEntity,
  AuditLogEntry,
  OutboxMessage,
  InboxMessage,
  ...exportEntities,
];
