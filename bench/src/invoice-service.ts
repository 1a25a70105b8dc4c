import { inTransaction } from '@billing/db';
import { decodeEnvelope, InboxMessage } from '@billing/events';
import { type InvoicingDeps, invoiceChargeCreated } from '@billing/invoicing';
import { runWithContext } from '@billing/observability';

/** The durable consumer name the charge consumer uses in production (chargeConsumerName('invoicing')). */
export const CONSUMER = 'invoicing-charges';

/**
 * The invoicing side: every delivered message as the charge consumer handles it (startConsumer's
 * handleOnce): the envelope decoded from its bytes, then one transaction per message with the
 * insert of its inbox row and `invoiceChargeCreated`, under the event's request context. What the bus
 * adds (fetching, acking) is left out: the bench feeds the bytes the relay would publish.
 */
export async function serviceInvoiceAll(deps: InvoicingDeps, messages: readonly Buffer[]): Promise<number> {
  let invoiced = 0;
  for (const data of messages) {
    const envelope = decodeEnvelope(data);
    const context = { requestId: envelope.request_id || envelope.event_id, organizationId: envelope.organization_id };
    const handled = await runWithContext(context, () =>
      inTransaction(deps.orm, async (em) => {
        const inserted = await em
          .createQueryBuilder(InboxMessage)
          .insert({ consumer: CONSUMER, messageId: envelope.event_id, processedAt: deps.clock.now() })
          .onConflict(['consumer', 'messageId'])
          .ignore()
          .execute('run');
        if (inserted.affectedRows === 0) return false;
        await invoiceChargeCreated(deps, em, envelope);
        return true;
      }),
    );
    if (handled) invoiced++;
  }
  return invoiced;
}
