import type { FilterQuery } from '@mikro-orm/postgresql';
import { InvoicePaymentEntity, type InvoicePaymentRow } from '../../db/entities/invoice-payment.entity.js';
import type { PaymentsDeps } from '../deps.js';
import { InFlight } from './in-flight.js';
import { type AttemptRun, type CallSlots, type OrganizationLookup, runDueAttempts } from './run-attempt.js';

const BATCH = 1_000;

/** A counting semaphore: at most `limit` calls run at once, the others wait in order. */
function callSlots(limit: number): CallSlots {
  let free = limit;
  const waiting: Array<() => void> = [];
  return async (call) => {
    if (free > 0) free -= 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await call();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    }
  };
}

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
 * Runs due payment attempts: at most `concurrency` gateway calls in flight, one run per invoice at
 * a time (InFlight). Due invoices are taken in groups of `concurrency`, each group's database work
 * done in one transaction before and one after its calls (run-attempt), and up to six groups are
 * under way at once (six transactions at most, within the ORM's pool of ten), so that while some
 * groups write, others' calls fill the gateway slots (bench:charges measured groups of a quarter
 * of the concurrency, eight under way, at about half the charges per second, and four groups
 * under way at 10-20 % fewer). Used by the invoice.issued consumer (at once), the worker (real-clock
 * organizations) and the test clock's advance.
 */
export class Charger {
  private readonly inFlight = new InFlight<AttemptRun>();
  private readonly slots: CallSlots;
  private readonly groupSize: number;
  private static readonly GROUPS_UNDER_WAY = 6;

  constructor(
    private readonly deps: PaymentsDeps,
    concurrency: number,
  ) {
    this.slots = callSlots(concurrency);
    this.groupSize = concurrency;
  }

  async runInvoice(invoiceId: string, now: Date): Promise<AttemptRun> {
    const runs = await this.runGroup([{ invoiceId, now }]);
    return runs.get(invoiceId) ?? 'not_due';
  }

  /**
   * Runs the due attempts of these invoices (each at its moment), in groups as runDue does.
   * `organization`: the caller's lookup, when it has asked for the organizations already.
   */
  async runInvoices(
    jobs: ReadonlyArray<{ invoiceId: string; now: Date }>,
    organization?: OrganizationLookup,
  ): Promise<void> {
    const groups: Array<Array<{ invoiceId: string; now: Date }>> = [];
    for (let start = 0; start < jobs.length; start += this.groupSize)
      groups.push(jobs.slice(start, start + this.groupSize));
    await eachWithConcurrency(groups, Charger.GROUPS_UNDER_WAY, async (group) => {
      await this.runGroup(group, organization);
    });
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
      const groups: Array<Array<{ invoiceId: string; now: Date }>> = [];
      for (let start = 0; start < due.length; start += this.groupSize) {
        groups.push(
          due.slice(start, start + this.groupSize).map((job) => ({ invoiceId: job.invoice_id, now: nowOf(job) })),
        );
      }
      let progressed = false;
      await eachWithConcurrency(groups, Charger.GROUPS_UNDER_WAY, async (group) => {
        const runs = await this.runGroup(group);
        for (const [invoiceId, outcome] of runs) {
          ran.push(invoiceId);
          // Tried again on the next pass, not in this one: the gateway is not answering now.
          if (outcome === 'gateway_error') unreachable.add(invoiceId);
          if (outcome !== 'not_due') progressed = true;
        }
      });
      // Every due invoice is held by another run (another replica, or this process's consumer):
      // those runs move them on; this pass leaves them.
      if (!progressed) return ran;
    }
  }

  idle(): Promise<void> {
    return this.inFlight.idle();
  }

  private runGroup(
    group: ReadonlyArray<{ invoiceId: string; now: Date }>,
    organization?: OrganizationLookup,
  ): Promise<Map<string, AttemptRun>> {
    const nowOf = new Map(group.map((job) => [job.invoiceId, job.now]));
    return this.inFlight.runMany(
      group.map((job) => job.invoiceId),
      (claimed) =>
        runDueAttempts(
          this.deps,
          claimed.map((invoiceId) => ({ invoiceId, now: nowOf.get(invoiceId)! })),
          this.slots,
          organization,
        ),
      'not_due',
    );
  }
}
