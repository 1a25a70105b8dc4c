import { AppError } from '@billing/errors';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { InvoiceEntity, type InvoiceRow } from './entities/invoice.entity.js';
import { InvoiceLineEntity, type InvoiceLineRow } from './entities/invoice-line.entity.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);

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
