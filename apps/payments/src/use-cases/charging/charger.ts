import type { FilterQuery } from '@mikro-orm/postgresql';
import { InvoicePaymentEntity, type InvoicePaymentRow } from '../../db/entities/invoice-payment.entity.js';
import type { PaymentsDeps } from '../deps.js';
import { InFlight } from './in-flight.js';
import { type AttemptRun, runDueAttempt } from './run-attempt.js';

const BATCH = 1_000;

/** Runs `work` on every item, at most `limit` at once. */
async function eachWithConcurrency<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * Runs due payment attempts: one invoice at a time per invoice (InFlight), up to `concurrency`
 * invoices at once, each waiting on its gateway. Used by the invoice.issued consumer (at once),
 * the worker (real-clock organizations) and the test clock's advance.
 */
export class Charger {
  private readonly inFlight = new InFlight<AttemptRun>();

  constructor(
    private readonly deps: PaymentsDeps,
    private readonly concurrency: number,
  ) {}

  runInvoice(invoiceId: string, now: Date): Promise<AttemptRun> {
    return this.inFlight.run(invoiceId, () => runDueAttempt(this.deps, invoiceId, now));
  }

  /**
   * Runs every attempt that is due at `until` among `where`, including retries that fall due
   * within it (a test clock moved past several days of a dunning schedule runs them in order).
   * `nowOf` is the moment each attempt is made at. Answers the invoices it ran.
   */
  async runDue(
    where: FilterQuery<InvoicePaymentRow>,
    until: Date,
    nowOf: (job: InvoicePaymentRow) => Date,
  ): Promise<string[]> {
    const ran: string[] = [];
    const unreachable = new Set<string>();
    for (;;) {
      const due = await this.deps.orm.em.fork().find(
        InvoicePaymentEntity,
        {
          $and: [
            where,
            { status: 'pending', next_attempt_at: { $lte: until } },
            ...(unreachable.size > 0 ? [{ invoice_id: { $nin: [...unreachable] } }] : []),
          ],
        },
        { orderBy: [{ next_attempt_at: 'asc' }, { invoice_id: 'asc' }], limit: BATCH },
      );
      if (due.length === 0) return ran;
      await eachWithConcurrency(due, this.concurrency, async (job) => {
        const outcome = await this.runInvoice(job.invoice_id, nowOf(job));
        ran.push(job.invoice_id);
        // Tried again on the next pass, not in this one: the gateway is not answering now.
        if (outcome === 'gateway_error') unreachable.add(job.invoice_id);
      });
    }
  }

  idle(): Promise<void> {
    return this.inFlight.idle();
  }
}
