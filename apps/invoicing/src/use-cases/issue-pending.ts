import { randomUUID } from 'node:crypto';
import { inTransaction } from '@billing/db';
import type { EventEnvelope } from '@billing/events';
import type { RequestContext } from '@billing/observability';
import { changeScope } from '@billing/runtime';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { InvoiceEntity, type InvoiceRow } from '../db/entities/invoice.entity.js';
import { localDay } from '../domain/local-day.js';
import { collectionEnded, isResellerGroupKey } from '../domain/reseller-billing.js';
import type { InvoicingDeps } from './deps.js';
import { issueInvoice, systemContext } from './issue-invoices.js';

/** One issued invoice's events, to hand to the accounts read model once the batch committed. */
interface Issued {
  context: RequestContext;
  published: EventEnvelope[];
  /** Its organization is on a test clock, whose advance waits until accounts has the invoice. */
  onTestClock: boolean;
}

async function issueRows(deps: InvoicingDeps, em: EntityManager, rows: readonly InvoiceRow[]): Promise<Issued[]> {
  const issued: Issued[] = [];
  for (const row of rows) {
    const context = systemContext(row.organization_id, `issue-${randomUUID()}`);
    const published: EventEnvelope[] = [];
    const [seller, buyer] = await Promise.all([
      deps.directory.seller(context),
      deps.directory.buyer(context, row.account_id),
    ]);
    const scope = changeScope(
      em,
      'invoicing',
      row.organization_id,
      context,
      seller.test_clock_time ?? deps.clock.now(),
      published,
    );
    await issueInvoice(scope, row, buyer.recipients);
    issued.push({ context, published, onTestClock: seller.test_clock_time !== null });
  }
  return issued;
}

/** After the commit, as runChange does: the accounts read model sees the invoices at once. */
async function handOver(deps: InvoicingDeps, issued: readonly Issued[]): Promise<void> {
  for (const { context, published } of issued) await deps.committedEvents?.(published, context);
}

/**
 * Issues grouped renewal invoices whose group window has passed (any organization), claimed with
 * FOR UPDATE SKIP LOCKED so replicas issue each once. Returns how many were issued.
 *
 * The invoices of an organization on a test clock are handed over to accounts after the commit,
 * as the charge consumer's are, tracked from before the claim (deps.handOvers): a test clock's
 * wait (awaitCharges) that finds them issued here, its own pass having waited on their row locks,
 * then waits for that hand-over too, so its advance answers after accounts has them. Every pass is
 * tracked, whichever organizations it issues for (whom it issues for is known only once it has
 * claimed), so an advance may also wait for a pass of other organizations (at most `batchSize`
 * invoices). A real-clock organization's invoices reach accounts through the stream; nobody waits
 * for them.
 */
export async function issueDuePendingInvoices(deps: InvoicingDeps, batchSize = 100): Promise<number> {
  const turn = deps.handOvers?.begin();
  let issued: Issued[];
  try {
    issued = await inTransaction(deps.orm, async (em) => {
      const rows = await em.find(
        InvoiceEntity,
        { status: 'pending', issue_after: { $lte: deps.clock.now() } },
        {
          orderBy: [{ issue_after: 'asc' }, { id: 'asc' }],
          limit: batchSize,
          lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE,
        },
      );
      return issueRows(deps, em, rows);
    });
  } catch (error) {
    turn?.cancel();
    throw error;
  }
  const onTestClock = issued.filter((invoice) => invoice.onTestClock);
  if (onTestClock.length === 0) turn?.cancel();
  else if (turn) await turn.run(() => handOver(deps, onTestClock));
  else await handOver(deps, onTestClock);
  return issued.length;
}

/**
 * Issues now every pending invoice of the organization (the test clock's wait): the grouped
 * renewal invoices at once, a reseller's invoices once their collection day has ended on the
 * organization's clock (the others keep collecting).
 */
export async function issuePendingNow(deps: InvoicingDeps, organizationId: string): Promise<number> {
  const seller = await deps.directory.seller(systemContext(organizationId, `issue-${randomUUID()}`));
  const today = localDay(seller.test_clock_time ?? deps.clock.now(), seller.time_zone);
  const issued = await inTransaction(deps.orm, async (em) => {
    const rows = await em.find(
      InvoiceEntity,
      { organization_id: organizationId, status: 'pending' },
      { orderBy: [{ created_at: 'asc' }, { id: 'asc' }], lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    const due = rows.filter((row) => !isResellerGroupKey(row.group_key ?? null) || collectionEnded(row.date, today));
    return issueRows(deps, em, due);
  });
  await handOver(deps, issued);
  return issued.length;
}
