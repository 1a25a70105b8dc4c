import { inTransaction } from '@billing/db';
import { AppError } from '@billing/errors';
import type { Logger, RequestContext } from '@billing/observability';
import { type ChangeScope, orgNow, requireOrganization } from '@billing/runtime';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { EinvoiceDeliveryEntity } from '../db/entities/einvoice-delivery.entity.js';
import { InvoiceEntity, type InvoiceRow } from '../db/entities/invoice.entity.js';
import { requireInvoice } from '../db/invoice-store.js';
import { invoiceViewWithLines } from '../db/invoice-view.js';
import { renderUbl } from '../documents/ubl.js';
import { afterDeliveryAttempt } from '../domain/einvoice/delivery-schedule.js';
import { einvoiceDocument } from '../domain/einvoice/einvoice-document.js';
import type { AccessPoint } from '../einvoice/access-point.js';
import type { InvoicingDeps } from './deps.js';

/**
 * The delivery of an e-invoice being issued (in the issuing transaction): due at once, on the
 * organization's clock. The invoice's primary key is the delivery's, so it is delivered once.
 */
export function queueEinvoiceDelivery(scope: ChangeScope, invoice: InvoiceRow): void {
  invoice.einvoice_status = 'pending';
  scope.em.create(EinvoiceDeliveryEntity, {
    invoice_id: invoice.id,
    organization_id: scope.organizationId,
    on_test_clock: invoice.einvoice?.on_test_clock ?? false,
    step: 0,
    attempts: 0,
    next_attempt_at: scope.now,
    last_status_code: null,
    last_error: null,
    delivered_at: null,
    created_at: scope.now,
    updated_at: scope.now,
  });
}

/** The UBL XML of the organization's e-invoice; 404 for an invoice that is not one. */
export async function getInvoiceUbl(deps: InvoicingDeps, context: RequestContext, uuid: string): Promise<string> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const invoice = await requireInvoice(em, organizationId, uuid);
  if (!invoice.einvoice) {
    throw AppError.notFound(
      'This invoice is not an e-invoice: its account did not use ean_invoicing when it was made.',
    );
  }
  return ublOf(em, invoice);
}

async function ublOf(em: EntityManager, invoice: InvoiceRow): Promise<string> {
  const view = await invoiceViewWithLines(em, invoice);
  const credited =
    invoice.credit_note_for != null
      ? await em.findOne(InvoiceEntity, { id: invoice.credit_note_for, organization_id: invoice.organization_id })
      : null;
  const creditedInvoiceNumber = credited?.invoice_number == null ? null : String(credited.invoice_number);
  return renderUbl(einvoiceDocument(view, invoice.einvoice!, { creditedInvoiceNumber }));
}

/** Which deliveries a pass attempts: the real clock's (every organization not on a test clock) or one organization's on its clock. */
export type DeliveryScope =
  | { kind: 'real_clock'; now: Date }
  | { kind: 'organization'; organizationId: string; now: Date };

/**
 * Attempts due e-invoice deliveries one at a time, each claimed with SKIP LOCKED and its outcome
 * written in the transaction that claimed it (the HTTP POST runs inside it): a crash mid-attempt
 * leaves the delivery due, so it is retried, never lost; the access point gets the invoice uuid as
 * idempotency key for that case. Delivered: `einvoice_status` delivered; the schedule exhausted:
 * failed. Returns the number of attempts made.
 */
export async function deliverDueEinvoices(
  deps: InvoicingDeps,
  accessPoint: AccessPoint,
  scope: DeliveryScope,
  logger: Logger,
  limit = 50,
): Promise<number> {
  let attempted = 0;
  for (; attempted < limit; attempted++) {
    const done = await inTransaction(deps.orm, async (em) => {
      const where =
        scope.kind === 'real_clock'
          ? { on_test_clock: false, next_attempt_at: { $lte: scope.now } }
          : { organization_id: scope.organizationId, next_attempt_at: { $lte: scope.now } };
      const delivery = await em.findOne(EinvoiceDeliveryEntity, where, {
        orderBy: [{ next_attempt_at: 'asc' }, { invoice_id: 'asc' }],
        lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE,
      });
      if (!delivery) return false;
      const invoice = await em.findOneOrFail(InvoiceEntity, {
        id: delivery.invoice_id,
        organization_id: delivery.organization_id,
      });
      const einvoice = invoice.einvoice!;
      const reply = await accessPoint({
        invoiceId: invoice.id,
        xml: await ublOf(em, invoice),
        sender: einvoice.seller_endpoint,
        receiver: einvoice.buyer_endpoint,
        intermediator: einvoice.intermediator,
      });
      // The attempt's moment on the organization's clock: the pass's "now" (its test clock's time).
      const outcome = afterDeliveryAttempt(delivery.step, reply.status, scope.now);
      em.assign(delivery, {
        step: outcome.step,
        attempts: delivery.attempts + 1,
        next_attempt_at: outcome.nextAttemptAt,
        last_status_code: reply.status,
        last_error: reply.error,
        delivered_at: outcome.status === 'delivered' ? scope.now : null,
        updated_at: scope.now,
      });
      invoice.einvoice_status = outcome.status;
      if (outcome.status !== 'delivered') {
        logger.warn(
          { invoice: invoice.id, status: reply.status, error: reply.error, next: outcome.nextAttemptAt },
          'e-invoice delivery failed',
        );
      }
      return true;
    });
    if (!done) break;
  }
  return attempted;
}

/** The test clock's advance: every delivery of the calling organization due on its clock. */
export async function deliverDueEinvoicesOfOrganization(
  deps: InvoicingDeps,
  accessPoint: AccessPoint | null,
  context: RequestContext,
  logger: Logger,
): Promise<number> {
  const organizationId = requireOrganization(context);
  if (accessPoint === null) return 0;
  let total = 0;
  for (;;) {
    const attempted = await deliverDueEinvoices(
      deps,
      accessPoint,
      { kind: 'organization', organizationId, now: orgNow(deps.clock, context) },
      logger,
    );
    total += attempted;
    if (attempted === 0) return total;
  }
}
