/**
 * The invoice actions (gaps.md §7): PATCH kickback_status, register-payment,
 * change-collection-method, send, credit and apply-credit-note. Each answers 200 (gaps.md §1), on
 * the hyphen and the underscore path; business refusals are 400 `{"error": "<why>"}`, bodies that
 * fail validation are DRF's `{"<field>": [...]}`.
 */
import { describe, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.js';
import type { ApiClient } from '../support/platform.js';
import { createRecipient, expectStatus, NOT_FOUND, newOrganization, REQUIRED, usePlatform } from './helpers.js';
import {
  ACTION_FORMS,
  actionPath,
  expectPdf,
  INVOICES,
  type Invoice,
  type InvoiceFixture,
  invoiceFixture,
  invoicePath,
  subscribeAndInvoice,
  waitForInvoices,
} from './invoices-helpers.js';
import { subscriptionPath, UNKNOWN_UUID } from './subscriptions-helpers.js';

const platform = usePlatform();

const readInvoice = async (api: ApiClient, uuid: string): Promise<Invoice> => {
  const response = await api.get(invoicePath(uuid));
  expectStatus(response, 200);
  return response.body;
};

/** Drops what differs between two reads of one invoice in the detail view (the PDF may be re-rendered). */
const withoutPdf = ({ pdf_base64: _pdf, ...rest }: Invoice) => rest;

async function organizationWithInvoice(features: string[] = []) {
  const organization = await newOrganization(platform(), { features });
  const fixture = await invoiceFixture(organization.api);
  const { subscription, invoice } = await subscribeAndInvoice(organization.api, fixture, { quantity: 2 });
  return { ...organization, fixture, subscription, invoice };
}

/**
 * An open credit note of -250.00 for the account (a full_refund cancellation credits the whole
 * period) and the invoice it credits, still open: the credit is not applied by itself.
 */
async function openCreditNote(api: ApiClient, fixture: InvoiceFixture) {
  const { subscription, invoice } = await subscribeAndInvoice(api, fixture, { quantity: 2 });
  expectStatus(
    await api.post(`${subscriptionPath(subscription.uuid)}cancel/`, { cancellation_type: 'full_refund' }),
    200,
  );
  const [note] = await waitForInvoices(api, `subscription_uuid=${subscription.uuid}&status=open&total__lt=0`, 1);
  return { invoice, note: await readInvoice(api, note!.uuid) };
}

describe('PATCH kickback_status', () => {
  it('works once `update-org --feature kickback=on` turns the feature on; while off, invoices show null', async () => {
    // Created as operators create organizations: kickback off by default.
    const created = await platform().admin('create-org', '--name', 'Kickback ApS', '--rate-limit', '10000');
    const { organization, token } = created as {
      organization: { id: string; features: Record<string, boolean> };
      token: { token: string };
    };
    expect(organization.features).toEqual({ kickback: false, self_service: true });
    const api = apiClient(platform().baseUrl, token.token);
    const fixture = await invoiceFixture(api);
    const { invoice } = await subscribeAndInvoice(api, fixture, { quantity: 2 });
    const pending = { kickback_status: 'commission_pending' };
    const kickbackTag = { model: 'invoice_kickback', schema: expect.any(String) };
    const shown = async () => {
      const list = await api.get(`${INVOICES}?uuid=${invoice.uuid}`);
      const filtered = await api.get(`${INVOICES}?kickback_status=commission_pending`);
      const read = await api.patch(invoicePath(invoice.uuid), {});
      return {
        detail: (await readInvoice(api, invoice.uuid)).kickback_status,
        list: list.body.results.map((row: Invoice) => row.kickback_status),
        filtered: filtered.body.results.map((row: Invoice) => row.uuid),
        patchWithoutStatus: read.body,
      };
    };
    const turn = (state: 'on' | 'off') =>
      platform().admin('update-org', '--org', organization.id, '--feature', `kickback=${state}`);

    const refused = await api.patch(invoicePath(invoice.uuid), pending);
    expectStatus(refused, 400);
    expect(refused.body).toEqual({ error: 'The kickback feature is not enabled for the organization.' });
    expect(await shown()).toEqual({
      detail: null,
      list: [null],
      filtered: [],
      patchWithoutStatus: { kickback_status: null, ...kickbackTag },
    });

    expect(await turn('on')).toMatchObject({ features: { kickback: true, self_service: true } });
    const set = await api.patch(invoicePath(invoice.uuid), pending);
    expectStatus(set, 200);
    expect(set.body).toEqual({ kickback_status: 'commission_pending', ...kickbackTag });
    expect(await shown()).toEqual({
      detail: 'commission_pending',
      list: ['commission_pending'],
      filtered: [invoice.uuid],
      patchWithoutStatus: { kickback_status: 'commission_pending', ...kickbackTag },
    });

    // Off again: refused, shown as null everywhere; the status set meanwhile is kept.
    await turn('off');
    const again = await api.patch(invoicePath(invoice.uuid), { kickback_status: 'commission_paid' });
    expectStatus(again, 400);
    expect(again.body).toEqual({ error: 'The kickback feature is not enabled for the organization.' });
    expect(await shown()).toEqual({
      detail: null,
      list: [null],
      filtered: [],
      patchWithoutStatus: { kickback_status: null, ...kickbackTag },
    });
    await turn('on');
    expect((await shown()).detail).toBe('commission_pending');
    // Four runs of the admin CLI (a Node start-up each) on a shared machine.
  }, 120_000);

  it('sets and clears it when the organization has the kickback feature', async () => {
    const { api, invoice } = await organizationWithInvoice(['kickback']);

    const set = await api.patch(invoicePath(invoice.uuid), { kickback_status: 'commission_pending' });
    const shown = await readInvoice(api, invoice.uuid);
    const cleared = await api.patch(invoicePath(invoice.uuid), { kickback_status: null });
    const unchanged = await api.patch(invoicePath(invoice.uuid), { status: 'paid' });

    expectStatus(set, 200);
    expect(set.body).toEqual({
      kickback_status: 'commission_pending',
      model: 'invoice_kickback',
      schema: expect.any(String),
    });
    expect(shown.kickback_status).toBe('commission_pending');
    expect(cleared.body).toEqual({ kickback_status: null, model: 'invoice_kickback', schema: expect.any(String) });
    expect(unchanged.body).toEqual(cleared.body);
    expect((await readInvoice(api, invoice.uuid)).status).toBe('open');
  });

  it('is refused with {"error"} when the feature is off, and a bad value names the field', async () => {
    const { api, invoice } = await organizationWithInvoice();
    const withFeature = await organizationWithInvoice(['kickback']);

    const off = await api.patch(invoicePath(invoice.uuid), { kickback_status: 'commission_paid' });
    const bad = await withFeature.api.patch(invoicePath(withFeature.invoice.uuid), { kickback_status: 'paid' });
    const missing = await api.patch(invoicePath(UNKNOWN_UUID), { kickback_status: 'commission_paid' });

    expectStatus(off, 400);
    expect(off.body).toEqual({ error: 'The kickback feature is not enabled for the organization.' });
    expectStatus(bad, 400);
    expect(bad.body).toEqual({ kickback_status: ['"paid" is not a valid choice.'] });
    expectStatus(missing, 404);
    expect(missing.body).toEqual(NOT_FOUND);
    expect((await readInvoice(api, invoice.uuid)).kickback_status).toBeNull();
  });
});

describe('register-payment', () => {
  it.each(ACTION_FORMS.registerPayment)(
    '/%s/ pays the balance and answers with the invoice, PDF included',
    async (action) => {
      const { api, invoice } = await organizationWithInvoice();

      const response = await api.post(actionPath(invoice.uuid, action), { registration_date: '2026-01-20' });

      expectStatus(response, 200);
      expect(response.body).toEqual({
        ...withoutPdf(invoice),
        status: 'paid',
        balance: '0.00',
        pdf_base64: expect.any(String),
      });
      expectPdf(response.body.pdf_base64);
      expect(withoutPdf(await readInvoice(api, invoice.uuid))).toEqual(withoutPdf(response.body));
    },
  );

  it('is refused with {"error"} on a paid invoice; the body is checked first', async () => {
    const { api, invoice } = await organizationWithInvoice();
    const path = actionPath(invoice.uuid, 'register-payment');
    expectStatus(await api.post(path, { registration_date: '2026-01-20' }), 200);

    const again = await api.post(path, { registration_date: '2026-01-21' });
    const missing = await api.post(path, {});
    const bad = await api.post(path, { registration_date: '20.01.2026' });
    const impossible = await api.post(path, { registration_date: '2026-02-30' });

    expectStatus(again, 400);
    expect(again.body).toEqual({ error: 'The invoice is paid; there is nothing to pay.' });
    expect(missing.body).toEqual({ registration_date: [REQUIRED] });
    expect(bad.body).toEqual({
      registration_date: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
    });
    expect(impossible.body).toEqual(bad.body);
  });
});

describe('change-collection-method', () => {
  it.each(ACTION_FORMS.changeCollectionMethod)('/%s/ changes it and answers with the invoice', async (action) => {
    const { api, invoice } = await organizationWithInvoice();

    const response = await api.post(actionPath(invoice.uuid, action), { collection_method: 'direct_debit' });

    expectStatus(response, 200);
    expect(withoutPdf(response.body)).toEqual({ ...withoutPdf(invoice), collection_method: 'direct_debit' });
    expectPdf(response.body.pdf_base64);
  });

  it('is refused with {"error"} once the invoice is settled; a missing or unknown method names the field', async () => {
    const { api, invoice } = await organizationWithInvoice();
    const path = actionPath(invoice.uuid, 'change-collection-method');

    const missing = await api.post(path, {});
    const unknown = await api.post(path, { collection_method: 'cash' });
    expectStatus(
      await api.post(actionPath(invoice.uuid, 'register-payment'), { registration_date: '2026-01-20' }),
      200,
    );
    const settled = await api.post(path, { collection_method: 'payment_card' });

    expect(missing.body).toEqual({ collection_method: [REQUIRED] });
    expect(unknown.body).toEqual({ collection_method: ['"cash" is not a valid choice.'] });
    expectStatus(settled, 400);
    expect(settled.body).toEqual({ error: 'The invoice is paid; its collection method cannot change.' });
  });
});

describe('send', () => {
  it('e-mails the invoice to the recipients that receive invoices and says so in {"detail"}', async () => {
    const { api, fixture, invoice } = await organizationWithInvoice();
    const ada = await createRecipient(api, fixture.account.uuid, { email: 'ada@example.com', receive_invoice: true });
    await createRecipient(api, fixture.account.uuid, { email: 'bob@example.com', receive_invoice: false });

    const response = await api.post(actionPath(invoice.uuid, 'send'));

    expectStatus(response, 200);
    expect(response.body).toEqual({ detail: `Invoice sent to ${ada.email}.`, sent_to: [ada.email] });
  });

  it('is refused with {"error"} when no recipient receives invoices', async () => {
    const { api, invoice } = await organizationWithInvoice();

    const response = await api.post(actionPath(invoice.uuid, 'send'), {});

    expectStatus(response, 400);
    expect(response.body).toEqual({ error: 'The account has no recipient that receives invoices.' });
  });
});

describe('credit', () => {
  it('issues a credit note for the whole balance, answers with it (200) and settles the invoice', async () => {
    const { api, invoice } = await organizationWithInvoice();
    const line = (invoice.invoiceline_set as Array<{ id: number }>)[0]!;

    const response = await api.post(actionPath(invoice.uuid, 'credit'));

    expectStatus(response, 200);
    expect(response.body).toMatchObject({
      invoice_number: 2,
      is_credit_note: true,
      credit_note_for: invoice.uuid,
      account_uuid: invoice.account_uuid,
      currency: 'DKK',
      subtotal: '-200.00',
      vat: '-50.00',
      total: '-250.00',
      balance: '0.00',
      status: 'credited',
      invoice_api_url: `${platform().baseUrl}${invoicePath(response.body.uuid)}`,
    });
    expect(response.body.invoiceline_set).toEqual([
      expect.objectContaining({ refund_of: line.id, subtotal: '-200.00', vat: '-50.00', total: '-250.00' }),
    ]);
    expectPdf(response.body.pdf_base64);
    expect(await readInvoice(api, invoice.uuid)).toMatchObject({ status: 'credited', balance: '0.00' });
  });

  it('is refused with {"error"} for a settled invoice and for a credit note', async () => {
    const { api, invoice } = await organizationWithInvoice();
    const note = (await api.post(actionPath(invoice.uuid, 'credit'))).body as Invoice;

    const again = await api.post(actionPath(invoice.uuid, 'credit'));
    const ofNote = await api.post(actionPath(note.uuid, 'credit'));

    expectStatus(again, 400);
    expect(again.body).toEqual({ error: 'The invoice is credited; there is nothing to credit.' });
    expectStatus(ofNote, 400);
    expect(ofNote.body).toEqual({ error: 'A credit note cannot be credited.' });
  });
});

describe('apply-credit-note', () => {
  it('moves an amount, then the rest, from the credit note to the invoice on both path forms', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await invoiceFixture(api);
    const { invoice, note } = await openCreditNote(api, fixture);
    expect(note).toMatchObject({ is_credit_note: true, total: '-250.00', balance: '-250.00', status: 'open' });
    const [hyphen, underscore] = ACTION_FORMS.applyCreditNote;

    const part = await api.post(actionPath(note.uuid, hyphen), { target_invoice: invoice.uuid, amount: '100' });
    const afterPart = await readInvoice(api, invoice.uuid);
    const rest = await api.post(actionPath(note.uuid, underscore), { target_invoice: invoice.uuid });

    expectStatus(part, 200);
    expect(part.body).toMatchObject({ uuid: note.uuid, balance: '-150.00', status: 'open' });
    expectPdf(part.body.pdf_base64);
    expect(afterPart).toMatchObject({ balance: '150.00', status: 'open' });
    expectStatus(rest, 200);
    expect(rest.body).toMatchObject({ uuid: note.uuid, balance: '0.00', status: 'credited' });
    expect(await readInvoice(api, invoice.uuid)).toMatchObject({ balance: '0.00', status: 'credited' });
  });

  it('refuses with {"error"}: more than the credit left, a plain invoice, an unknown target, another account', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await invoiceFixture(api);
    const other = await invoiceFixture(api);
    const { invoice, note } = await openCreditNote(api, fixture);
    const { invoice: othersInvoice } = await subscribeAndInvoice(api, other);
    const apply = (uuid: string, body: Record<string, unknown>) =>
      api.post(actionPath(uuid, 'apply-credit-note'), body);

    const answers = [
      await apply(note.uuid, { target_invoice: invoice.uuid, amount: '250.01' }),
      await apply(invoice.uuid, { target_invoice: othersInvoice.uuid }),
      await apply(note.uuid, { target_invoice: UNKNOWN_UUID }),
      await apply(note.uuid, { target_invoice: othersInvoice.uuid }),
    ];

    for (const answer of answers) expectStatus(answer, 400);
    expect(answers.map((answer) => answer.body)).toEqual([
      { error: 'The amount is more than the credit note has left.' },
      { error: 'Only a credit note can be applied.' },
      { error: 'The target invoice does not exist.' },
      { error: 'The target invoice belongs to another account.' },
    ]);
    expect(await readInvoice(api, note.uuid)).toMatchObject({ balance: '-250.00', status: 'open' });
  });

  it('checks the body in DRF’s shape before anything else', async () => {
    const { api } = await newOrganization(platform());
    const path = actionPath(UNKNOWN_UUID, 'apply-credit-note');

    const missing = await api.post(path, {});
    const bad = await api.post(path, { target_invoice: 'x', amount: 'abc' });
    const zero = await api.post(path, { target_invoice: UNKNOWN_UUID, amount: '0' });
    const tooPrecise = await api.post(path, { target_invoice: UNKNOWN_UUID, amount: '1.001' });

    expect(missing.body).toEqual({ target_invoice: [REQUIRED] });
    expect(bad.body).toEqual({ target_invoice: ['Must be a valid UUID.'], amount: ['A valid number is required.'] });
    expect(zero.body).toEqual({ amount: ['Ensure this value is greater than or equal to 0.01.'] });
    expect(tooPrecise.body).toEqual({ amount: ['Ensure that there are no more than 2 decimal places.'] });
    expectStatus(await api.post(path, { target_invoice: UNKNOWN_UUID }), 404);
  });
});
