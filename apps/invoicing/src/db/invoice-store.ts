import { isUuid } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import { LockMode, type RawQueryFragment } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { InvoiceEntity, type InvoiceRow } from './entities/invoice.entity.js';
import { InvoiceLineEntity, type InvoiceLineRow } from './entities/invoice-line.entity.js';
import { InvoicedChargeEntity } from './entities/invoiced-charge.entity.js';

/** The organization's issued invoice (pending ones are not visible), or 404. */
export async function requireInvoice(
  em: EntityManager,
  organizationId: string,
  uuid: string,
  lock = false,
): Promise<InvoiceRow> {
  if (!isUuid(uuid)) throw AppError.notFound();
  const row = await em.findOne(
    InvoiceEntity,
    { organization_id: organizationId, id: uuid, status: { $ne: 'pending' } },
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
  );
  if (!row) throw AppError.notFound();
  return row;
}

/**
 * The organization's issued invoices among `uuids` (pending ones are not visible; unknown ones are
 * left out), locked for the caller's transaction in the order of their ids (two lockers never deadlock).
 */
export async function lockIssuedInvoices(
  em: EntityManager,
  organizationId: string,
  uuids: readonly string[],
): Promise<InvoiceRow[]> {
  const ids = uuids.filter(isUuid);
  if (ids.length === 0) return [];
  return em.find(
    InvoiceEntity,
    { organization_id: organizationId, id: { $in: ids }, status: { $ne: 'pending' } },
    { orderBy: { id: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE },
  );
}

export async function linesOf(
  em: EntityManager,
  invoiceIds: readonly string[],
): Promise<Map<string, InvoiceLineRow[]>> {
  const byInvoice = new Map<string, InvoiceLineRow[]>();
  if (invoiceIds.length === 0) return byInvoice;
  const lines = await em.find(
    InvoiceLineEntity,
    { invoice_id: { $in: [...invoiceIds] } },
    { orderBy: [{ sort_weight: 'asc' }, { id: 'asc' }] },
  );
  for (const line of lines) byInvoice.set(line.invoice_id, [...(byInvoice.get(line.invoice_id) ?? []), line]);
  return byInvoice;
}

/**
 * The next invoice number of the organization, taken in the caller's transaction: the counter row
 * is locked until commit, so concurrent issuers queue and a rollback gives the number back.
 */
export async function nextInvoiceNumber(em: EntityManager, organizationId: string): Promise<number> {
  const [row] = await em.execute<{ last_number: string }[]>(
    `insert into invoice_number_counter (organization_id, last_number) values (?, 1)
     on conflict (organization_id) do update set last_number = invoice_number_counter.last_number + 1
     returning last_number`,
    [organizationId],
  );
  return Number(row!.last_number);
}

/**
 * The organization's open invoices (not credit notes) in `currency` that hold lines of the
 * subscription, oldest number first, locked for the caller's transaction (a credit is applied to them).
 */
export async function openInvoicesOfSubscription(
  em: EntityManager,
  organizationId: string,
  subscriptionId: string,
  currency: string,
): Promise<InvoiceRow[]> {
  return em.find(
    InvoiceEntity,
    {
      organization_id: organizationId,
      id: { $in: invoicesWithLinesOf(em, organizationId, subscriptionId) },
      is_credit_note: false,
      status: 'open',
      currency,
    },
    { orderBy: [{ invoice_number: 'asc' }], lockMode: LockMode.PESSIMISTIC_WRITE },
  );
}

/** The ids of the invoices holding lines of the subscription, as a subquery (never a list sent back). */
export function invoicesWithLinesOf(
  em: EntityManager,
  organizationId: string,
  subscriptionId: string,
): RawQueryFragment {
  return em
    .createQueryBuilder(InvoiceLineEntity, 'subscription_line')
    .select('invoice_id')
    .where({ organization_id: organizationId, subscription_id: subscriptionId })
    .toRaw();
}

/**
 * Transaction-scoped advisory locks on invoice uuids, taken in sorted order (two takers of
 * overlapping sets never deadlock). An issuer holds its new invoices' locks from before it
 * announces them to accounts until its commit or rollback; ConfirmInvoices takes the same locks
 * and so waits for that transaction to end. The key is a 64-bit hash of the uuid: a collision only
 * makes one wait for the other.
 */
export async function lockInvoiceIds(em: EntityManager, invoiceIds: readonly string[]): Promise<void> {
  if (invoiceIds.length === 0) return;
  await lockKeys(
    em,
    [...invoiceIds].sort().map((id) => `invoice:${id}`),
  );
}

/**
 * A transaction-scoped advisory lock on the organization's pending invoice of a group (a grouped
 * renewal's, a reseller's collection): taken before the pending invoice is looked for, so that two
 * transactions invoicing charges of the same group (two charge batches, two replicas) do not both
 * find none and each make one; the second finds the first's once it committed. Two batches taking
 * the same groups in another order deadlock, and the one Postgres aborts is retried.
 */
export async function lockInvoiceGroup(em: EntityManager, organizationId: string, groupKey: string): Promise<void> {
  await lockKeys(em, [`invoice-group:${organizationId}:${groupKey}`]);
}

async function lockKeys(em: EntityManager, keys: readonly string[]): Promise<void> {
  await em.execute(
    `select pg_advisory_xact_lock(hashtextextended(key, 0))
       from (values ${keys.map(() => '(?)').join(', ')}) as keys(key) order by key`,
    keys,
  );
}

/** The invoices among `invoiceIds` that exist in the organization, pending ones included. */
export async function existingInvoiceIds(
  em: EntityManager,
  organizationId: string,
  invoiceIds: readonly string[],
): Promise<string[]> {
  if (invoiceIds.length === 0) return [];
  const rows = await em.find(
    InvoiceEntity,
    { organization_id: organizationId, id: { $in: [...invoiceIds] } },
    { fields: ['id'], orderBy: { id: 'asc' } },
  );
  return rows.map((row) => row.id);
}

/** The charges among `chargeIds` of the organization that are on an invoice (committed). */
export async function invoicedChargeIds(
  em: EntityManager,
  organizationId: string,
  chargeIds: readonly string[],
): Promise<string[]> {
  if (chargeIds.length === 0) return [];
  const rows = await em.find(
    InvoicedChargeEntity,
    { organization_id: organizationId, charge_id: { $in: [...chargeIds] } },
    { fields: ['charge_id'], orderBy: { charge_id: 'asc' } },
  );
  return rows.map((row) => row.charge_id);
}
