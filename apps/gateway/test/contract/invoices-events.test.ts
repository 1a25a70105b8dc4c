/**
 * Invoice events as their readers (the accounts read model: balance filter, delete rule) need
 * them: every change of an invoice's balance is published, credit notes' included, each event
 * carrying the invoice's next version, and the last event of an invoice says what the API says.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import { createAccount, expectStatus, type Json, newOrganization, usePlatform } from './helpers.js';
import { actionPath, DRAFT_LINES, generateInvoicePath, type Invoice, invoicePath } from './invoices-helpers.js';

const platform = usePlatform();

/** One draft line (services, DK VAT 25%) of `price`, then generate_invoice: the invoice made. */
async function invoiceOf(api: ApiClient, code: string, price: string): Promise<Invoice> {
  expectStatus(
    await api.post(DRAFT_LINES, { account: code, description: 'Consulting', vat_type: 'services', price }),
    201,
  );
  const response = await api.post(generateInvoicePath(code), {});
  expectStatus(response, 200);
  return (response.body as Invoice[])[0]!;
}

describe('invoice events: what the accounts read model is fed', () => {
  it('every change of a balance is published, credit notes’ included, in version order', async () => {
    const { api, organizationId } = await newOrganization(platform());
    await createAccount(api, 'events');
    const credited = await invoiceOf(api, 'events', '80');
    const note = (await api.post(actionPath(credited.uuid, 'credit'), {})).body as Invoice;
    const owed = await invoiceOf(api, 'events', '80');
    const partial = await invoiceOf(api, 'events', '-20');
    expectStatus(
      await api.post(actionPath(partial.uuid, 'apply-credit-note'), { target_invoice: owed.uuid, amount: '5.00' }),
      200,
    );

    const events = await platform().invoiceEvents(organizationId);
    const states = (uuid: string) =>
      events
        .filter((event) => event.invoice.uuid === uuid)
        .map((event) => [event.event_type, event.invoice.version, event.invoice.status, event.invoice.balance]);
    expect(states(credited.uuid)).toEqual([
      ['invoice.issued', 1, 'open', '100.00'],
      ['invoice.credited', 2, 'credited', '0.00'],
    ]);
    expect(states(note.uuid)).toEqual([
      ['invoice.issued', 1, 'open', '-100.00'],
      ['invoice.updated', 2, 'credited', '0.00'],
    ]);
    expect(states(owed.uuid)).toEqual([
      ['invoice.issued', 1, 'open', '100.00'],
      ['invoice.credited', 2, 'open', '95.00'],
    ]);
    expect(states(partial.uuid)).toEqual([
      ['invoice.issued', 1, 'open', '-25.00'],
      ['invoice.updated', 2, 'open', '-20.00'],
    ]);
    for (const invoice of [credited, note, owed, partial]) {
      const read = (await api.get(invoicePath(invoice.uuid))).body as Json;
      expect(states(invoice.uuid).at(-1)?.slice(2)).toEqual([read.status, read.balance]);
    }
  });
});
