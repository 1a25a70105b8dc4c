import { randomUUID } from 'node:crypto';
import { inTransaction } from '@billing/db';
import type { EventEnvelope } from '@billing/events';
import type { RequestContext } from '@billing/observability';
import { changeScope } from '@billing/runtime';
import { LockMode } from '@mikro-orm/core';
import { InvoiceEntity } from '../db/entities/invoice.entity.js';
import { InvoiceReadModelBackfillEntity } from '../db/entities/invoice-read-model-backfill.entity.js';
import { invoiceViewWithLines } from '../db/invoice-view.js';
import { publishInvoiceEvent } from '../events/invoice-events.js';
import type { InvoicingDeps } from './deps.js';
import { systemContext } from './issue-invoices.js';

/**
 * Publishes the state of invoices the accounts read model was never sent (invoice_read_model_backfill:
 * those issued before invoices published a versioned state), a batch per call, claimed with SKIP
 * LOCKED so replicas share the work: each as `invoice.updated` with its current version, nothing
 * about the invoice changed. Safe to repeat: accounts keeps a state only over a smaller version, so
 * a state it already has is ignored. The events are handed over to accounts after the commit, as
 * every invoice change's are. Returns how many invoices were published.
 */
export async function publishBackfilledInvoices(deps: InvoicingDeps, batchSize = 200): Promise<number> {
  // One hand-over per organization: accounts accepts only the calling organization's events.
  const handOvers = new Map<string, { context: RequestContext; published: EventEnvelope[] }>();
  const count = await inTransaction(deps.orm, async (em) => {
    const claimed = await em.find(
      InvoiceReadModelBackfillEntity,
      {},
      { orderBy: { invoice_id: 'asc' }, limit: batchSize, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
    );
    if (claimed.length === 0) return 0;
    const invoices = await em.find(
      InvoiceEntity,
      { id: { $in: claimed.map((row) => row.invoice_id) } },
      { orderBy: { organization_id: 'asc', id: 'asc' } },
    );
    for (const invoice of invoices) {
      let handOver = handOvers.get(invoice.organization_id);
      if (!handOver) {
        const context = systemContext(invoice.organization_id, `read-model-backfill-${randomUUID()}`);
        handOver = { context, published: [] };
        handOvers.set(invoice.organization_id, handOver);
      }
      const { context, published } = handOver;
      const scope = changeScope(em, 'invoicing', invoice.organization_id, context, deps.clock.now(), published);
      publishInvoiceEvent(scope, 'invoice.updated', await invoiceViewWithLines(em, invoice));
    }
    await em.nativeDelete(InvoiceReadModelBackfillEntity, {
      invoice_id: { $in: claimed.map((row) => row.invoice_id) },
    });
    return claimed.length;
  });
  for (const { context, published } of handOvers.values()) await deps.committedEvents?.(published, context);
  return count;
}
