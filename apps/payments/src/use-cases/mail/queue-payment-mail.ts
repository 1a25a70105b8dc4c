import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { insertPaymentMail } from '../../db/charge-store.js';
import type { PaymentMailFacts } from '../../domain/payment-mail.js';

/**
 * Writes a payment mail in the caller's transaction, so it exists exactly when the change it
 * tells of is committed. The callers write each (kind, subject) once, under the lock of the
 * attempt or card; the table's unique key keeps it so.
 */
export async function queuePaymentMail(
  em: EntityManager,
  mail: { organizationId: string; accountId: string; subjectId: string; facts: PaymentMailFacts; now: Date },
): Promise<void> {
  await insertPaymentMail(em, { id: randomUUID(), ...mail });
}
