import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PaymentMailEntity } from '../../db/entities/payment-mail.entity.js';
import type { PaymentMailFacts } from '../../domain/payment-mail.js';

/**
 * Writes a payment mail in the caller's transaction, so it exists exactly when the change it
 * tells of is committed. The callers write each (kind, subject) once, under the lock of the
 * attempt or card; the table's unique key keeps it so.
 */
export function queuePaymentMail(
  em: EntityManager,
  mail: { organizationId: string; accountId: string; subjectId: string; facts: PaymentMailFacts; now: Date },
): void {
  em.create(PaymentMailEntity, {
    id: randomUUID(),
    organization_id: mail.organizationId,
    account_id: mail.accountId,
    kind: mail.facts.kind,
    subject_id: mail.subjectId,
    facts: mail.facts,
    attempts: 0,
    last_error: null,
    sent_to: null,
    sent_at: null,
    created_at: mail.now,
  });
}
