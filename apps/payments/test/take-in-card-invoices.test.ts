/**
 * The invoice.issued consumer's batch takes its card invoices in with one statement
 * (takeInCardInvoices), against a real, migrated throwaway schema: each chargeable card invoice
 * once, with the row one invoice at a time would write; the others and those already taken in are
 * left as they are.
 */
import { randomUUID } from 'node:crypto';
import { inTransaction } from '@billing/db';
import type { TestSchema } from '@billing/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvoicePaymentEntity } from '../src/db/entities/invoice-payment.entity.js';
import type { CardInvoice } from '../src/domain/directory.js';
import { takeInCardInvoices } from '../src/use-cases/charging/take-in-invoice.js';
import { openPaymentsSchema } from './support/payments-schema.js';

let database: TestSchema;
let orm: MikroORM;

beforeAll(async () => {
  ({ database, orm } = await openPaymentsSchema('payments_take_in'));
});

afterAll(async () => {
  await orm?.close(true);
  await database?.drop();
});

const issuedAt = new Date('2026-03-01T09:00:00.000Z');
const now = new Date('2026-03-01T09:00:05.000Z');

function cardInvoice(number: string, settings: Partial<CardInvoice> = {}): CardInvoice {
  return {
    invoiceId: randomUUID(),
    accountId: randomUUID(),
    invoiceNumber: number,
    status: 'open',
    collectionMethod: 'payment_card',
    isCreditNote: false,
    balance: '125.50',
    currency: 'DKK',
    issuedAt,
    ...settings,
  };
}

async function rowsOf(organizationId: string) {
  const rows = await orm.em
    .fork()
    .find(InvoicePaymentEntity, { organization_id: organizationId }, { orderBy: { invoice_number: 'asc' } });
  return rows.map((row) => ({ ...row }));
}

describe('takeInCardInvoices', () => {
  it('takes each chargeable card invoice of a batch in once, as one at a time would', async () => {
    const organizationId = randomUUID();
    const origin = { organizationId, now, testClock: false };
    const first = cardInvoice('1');
    const second = cardInvoice('2', { currency: 'EUR', balance: '0.01', issuedAt: null });
    const batch = [
      first,
      cardInvoice('3', { isCreditNote: true, balance: '-10' }),
      second,
      // The same invoice.issued delivered twice in one batch.
      first,
      cardInvoice('4', { collectionMethod: 'invoice' }),
      cardInvoice('5', { status: 'paid' }),
      cardInvoice('6', { balance: '0' }),
    ];
    const takenIn = await inTransaction(orm, (em) =>
      takeInCardInvoices(
        em,
        batch.map((invoice) => ({ invoice, origin })),
      ),
    );
    expect([...takenIn].sort()).toEqual([first.invoiceId, second.invoiceId].sort());
    const rows = await rowsOf(organizationId);
    expect(rows).toEqual([
      {
        invoice_id: first.invoiceId,
        organization_id: organizationId,
        account_id: first.accountId,
        invoice_number: '1',
        amount: '125.500000',
        currency: 'DKK',
        status: 'pending',
        test_clock: false,
        next_attempt_at: issuedAt,
        first_attempt_at: null,
        attempts_made: 0,
        created_at: now,
        updated_at: now,
      },
      {
        invoice_id: second.invoiceId,
        organization_id: organizationId,
        account_id: second.accountId,
        invoice_number: '2',
        amount: '0.010000',
        currency: 'EUR',
        status: 'pending',
        test_clock: false,
        // No issue moment known: due at the organization's now.
        next_attempt_at: now,
        first_attempt_at: null,
        attempts_made: 0,
        created_at: now,
        updated_at: now,
      },
    ]);

    // Brought again (the test clock's advance, a redelivery): nothing taken in, nothing changed.
    const third = cardInvoice('7');
    const again = await inTransaction(orm, (em) =>
      takeInCardInvoices(em, [
        { invoice: first, origin: { organizationId, now: new Date('2026-03-02T00:00:00.000Z'), testClock: true } },
        { invoice: third, origin },
      ]),
    );
    expect([...again]).toEqual([third.invoiceId]);
    expect((await rowsOf(organizationId)).slice(0, 2)).toEqual(rows);
  });
});
