/**
 * E-invoices (docs/api.md "E-invoices", docs/invoicing.md "E-invoices"): an account with
 * ean_invoicing gets its invoices and credit notes as Peppol BIS Billing 3.0 UBL documents,
 * downloadable from GET /api/v1/invoices/{uuid}/ubl/ and delivered to the access point (a local
 * HTTP server here) on the organization's test clock, retried after a failure, once each; they are
 * not e-mailed (a local SMTP server sees only the other account's invoice).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bisViolations, parseUbl, ublAll, ublText, waitFor } from '@billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startSmtpCapture } from '../support/smtp-capture.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { createRecipient, expectStatus, newOrganization } from './helpers.js';
import { actionPath, invoiceFixture, invoicePath, subscribeAndInvoice, waitForInvoices } from './invoices-helpers.js';

const TOKEN = 'ap-token-7f3c';
const START = '2026-01-15T09:00:00.000Z';
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let accessPoint: WebhookReceiver;
let platform: TestPlatform;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  accessPoint = await startWebhookReceiver();
  platform = await startTestPlatform({
    smtpUrl: smtp.url,
    einvoiceAccessPoint: { url: accessPoint.url('/peppol/outbox'), token: TOKEN },
  });
});

afterAll(async () => {
  await platform?.stop();
  await accessPoint?.close();
  await smtp?.stop();
});

/** A Danish seller with a CVR number on a test clock, and an advance of its clock. */
async function seller() {
  const organization = await newOrganization(platform, { test_clock_time: START });
  await platform.admin(
    'update-org',
    '--org',
    organization.organizationId,
    '--name',
    'Nordlys ApS',
    '--address',
    'Vesterbrogade 1',
    '--zipcode',
    '1620',
    '--city',
    'København V',
    '--vat-number',
    'DK12345678',
    '--email',
    'faktura@nordlys.dk',
  );
  const advance = async (to: string) =>
    expectStatus(await organization.api.post('/api/v1/test-clock/advance/', { to }), 200);
  return { ...organization, advance };
}

const EAN_ACCOUNT = {
  company_name: 'Kommune Nord',
  legal_address: 'Rådhuspladsen 1',
  legal_zipcode: '9000',
  legal_city: 'Aalborg',
  legal_vat_number: 'DK29189420',
  ean_invoicing: true,
  einvoicing_identifier_schema: 'GLN',
  ean_number: '5798000416604',
  einvoicing_intermediator: 'NETS',
};

describe('e-invoices (Peppol BIS Billing 3.0)', () => {
  it('an ean_invoicing account’s invoice: a valid BIS document matching the invoice, delivered after a failed attempt, once, never e-mailed', async () => {
    const { api, advance } = await seller();
    const ean = await invoiceFixture(api, { account: EAN_ACCOUNT });
    await createRecipient(api, ean.account.uuid as string, {
      email: 'ap@kommune-nord.example',
      receive_invoice: true,
      receive_subscription_notifications: false,
    });
    const plain = await invoiceFixture(api);
    await createRecipient(api, plain.account.uuid as string, {
      email: 'ap@plain.example',
      receive_invoice: true,
      receive_subscription_notifications: false,
    });
    const mine = () => accessPoint.at('/peppol/outbox');
    // The access point is down for the first attempt, then accepts.
    accessPoint.answer(() => (mine().length <= 1 ? 503 : 202));

    const { invoice } = await subscribeAndInvoice(api, ean, { quantity: 2 });
    expect(invoice.einvoice_status).toBe('pending');
    const { invoice: mailed } = await subscribeAndInvoice(api, plain, { quantity: 1 });
    expect(mailed.einvoice_status).toBeNull();

    // The document, field by field against the invoice the API shows.
    const ubl = await api.get(`${invoicePath(invoice.uuid)}ubl/`);
    expectStatus(ubl, 200);
    expect(ubl.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const xml = ubl.text;
    expect(bisViolations(xml)).toEqual([]);
    const root = parseUbl(xml);
    expect(root.localName).toBe('Invoice');
    expect(ublText(root, 'cbc:CustomizationID')).toBe(
      'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
    );
    expect(ublText(root, 'cbc:ProfileID')).toBe('urn:fdc:peppol.eu:2017:poacc:billing:01:1.0');
    expect(ublText(root, 'cbc:ID')).toBe(String(invoice.invoice_number));
    expect(ublText(root, 'cbc:IssueDate')).toBe(invoice.date);
    expect(invoice.date).toBe('2026-01-15');
    expect(ublText(root, 'cbc:DueDate')).toBe(invoice.due_date);
    expect(ublText(root, 'cbc:InvoiceTypeCode')).toBe('380');
    expect(ublText(root, 'cbc:DocumentCurrencyCode')).toBe('DKK');
    expect(ublText(root, 'cbc:BuyerReference')).toBe(ean.code);
    const supplier = ublAll(root, 'cac:AccountingSupplierParty/cac:Party')[0]!;
    const sellerEndpoint = ublAll(supplier, 'cbc:EndpointID')[0]!;
    expect([sellerEndpoint.getAttribute('schemeID'), sellerEndpoint.textContent]).toEqual(['0184', '12345678']);
    expect(ublText(supplier, 'cac:PartyLegalEntity/cbc:RegistrationName')).toBe('Nordlys ApS');
    expect(ublText(supplier, 'cac:PartyTaxScheme/cbc:CompanyID')).toBe('DK12345678');
    expect(ublText(supplier, 'cac:PostalAddress/cbc:StreetName')).toBe('Vesterbrogade 1');
    expect(ublText(supplier, 'cac:PostalAddress/cbc:CityName')).toBe('København V');
    expect(ublText(supplier, 'cac:Contact/cbc:ElectronicMail')).toBe('faktura@nordlys.dk');
    const customer = ublAll(root, 'cac:AccountingCustomerParty/cac:Party')[0]!;
    const buyerEndpoint = ublAll(customer, 'cbc:EndpointID')[0]!;
    expect([buyerEndpoint.getAttribute('schemeID'), buyerEndpoint.textContent]).toEqual(['0088', '5798000416604']);
    expect(ublText(customer, 'cac:PartyLegalEntity/cbc:RegistrationName')).toBe('Kommune Nord');
    expect(ublText(customer, 'cac:PartyTaxScheme/cbc:CompanyID')).toBe('DK29189420');
    expect(ublText(customer, 'cac:PostalAddress/cbc:PostalZone')).toBe('9000');
    expect(ublText(customer, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode')).toBe('DK');
    const [line] = invoice.invoiceline_set as Array<Record<string, string>>;
    const ublLine = ublAll(root, 'cac:InvoiceLine')[0]!;
    expect(ublText(ublLine, 'cbc:ID')).toBe(String(line!.id));
    expect(ublText(ublLine, 'cbc:InvoicedQuantity')).toBe(line!.quantity);
    expect(ublAll(ublLine, 'cbc:InvoicedQuantity')[0]!.getAttribute('unitCode')).toBe('C62');
    expect(ublText(ublLine, 'cbc:LineExtensionAmount')).toBe(line!.subtotal);
    expect(ublText(ublLine, 'cbc:LineExtensionAmount')).toBe('200.00');
    expect(ublText(ublLine, 'cac:InvoicePeriod/cbc:StartDate')).toBe(line!.date_from);
    expect(ublText(ublLine, 'cac:InvoicePeriod/cbc:EndDate')).toBe(line!.date_to);
    expect(ublText(ublLine, 'cac:Item/cbc:Name')).toBe(line!.description);
    expect(ublText(ublLine, 'cac:Item/cac:ClassifiedTaxCategory/cbc:ID')).toBe('S');
    expect(ublText(ublLine, 'cac:Item/cac:ClassifiedTaxCategory/cbc:Percent')).toBe(line!.vat_rate);
    expect(ublText(ublLine, 'cac:Price/cbc:PriceAmount')).toBe(line!.price);
    const subtotal = ublAll(root, 'cac:TaxTotal/cac:TaxSubtotal')[0]!;
    expect(ublText(subtotal, 'cbc:TaxableAmount')).toBe('200.00');
    expect(ublText(subtotal, 'cbc:TaxAmount')).toBe('50.00');
    expect(ublText(root, 'cac:TaxTotal/cbc:TaxAmount')).toBe(invoice.vat);
    expect(ublText(root, 'cac:LegalMonetaryTotal/cbc:LineExtensionAmount')).toBe(invoice.subtotal);
    expect(ublText(root, 'cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount')).toBe(invoice.total);
    expect(ublText(root, 'cac:LegalMonetaryTotal/cbc:PayableAmount')).toBe('250.00');
    expect(ublText(root, 'cac:PaymentTerms/cbc:Note')).toBe(`Payment terms: ${invoice.payment_terms} days`);

    // Delivery runs on the organization's clock: the advance attempts it; the access point fails.
    expect(mine()).toHaveLength(0);
    await advance(START);
    expect(mine()).toHaveLength(1);
    expect((await api.get(invoicePath(invoice.uuid))).body.einvoice_status).toBe('pending');
    // The retry is due a minute after the failed attempt: not before.
    await advance('2026-01-15T09:00:59.000Z');
    expect(mine()).toHaveLength(1);
    await advance('2026-01-15T09:01:00.000Z');
    expect(mine()).toHaveLength(2);
    expect((await api.get(invoicePath(invoice.uuid))).body.einvoice_status).toBe('delivered');
    // Once: later advances deliver nothing again.
    await advance('2026-01-16T09:00:00.000Z');
    expect(mine()).toHaveLength(2);
    const delivered = mine()[1]!;
    expect(delivered.body).toBe(xml);
    expect(delivered.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(delivered.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(delivered.headers['idempotency-key']).toBe(invoice.uuid);
    expect(delivered.headers['x-peppol-receiver']).toBe('iso6523-actorid-upis::0088:5798000416604');
    expect(delivered.headers['x-peppol-sender']).toBe('iso6523-actorid-upis::0184:12345678');
    expect(delivered.headers['x-einvoicing-intermediator']).toBe('NETS');

    // Not e-mailed: the other account's invoice reached SMTP, this one's recipient got nothing.
    await waitFor(() => (smtp.mails.some((mail) => mail.to.includes('ap@plain.example')) ? true : undefined), {
      timeoutMs: 20_000,
      description: 'the plain account’s invoice mail',
    });
    expect(smtp.mails.filter((mail) => mail.to.includes('ap@kommune-nord.example'))).toEqual([]);

    // The credit note is a CreditNote, delivered too (at the next advance), not e-mailed.
    const credited = await api.post(actionPath(invoice.uuid, 'credit'), {});
    expectStatus(credited, 200);
    const [note] = await waitForInvoices(api, `account=${ean.code}&ordering=-invoice_number`, 2);
    const noteDetail = (await api.get(invoicePath(note!.uuid))).body;
    expect(noteDetail.is_credit_note).toBe(true);
    expect(noteDetail.einvoice_status).toBe('pending');
    const noteXml = (await api.get(`${invoicePath(note!.uuid)}ubl/`)).text;
    expect(bisViolations(noteXml)).toEqual([]);
    const noteRoot = parseUbl(noteXml);
    expect(noteRoot.localName).toBe('CreditNote');
    expect(ublText(noteRoot, 'cbc:CreditNoteTypeCode')).toBe('381');
    expect(ublText(noteRoot, 'cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID')).toBe(
      String(invoice.invoice_number),
    );
    expect(ublText(noteRoot, 'cac:LegalMonetaryTotal/cbc:PayableAmount')).toBe('250.00');
    expect(ublText(noteRoot, 'cac:CreditNoteLine/cbc:CreditedQuantity')).toBe('2');
    await advance('2026-01-16T09:00:00.000Z');
    expect(mine()).toHaveLength(3);
    expect(mine()[2]!.body).toBe(noteXml);
    expect((await api.get(invoicePath(note!.uuid))).body.einvoice_status).toBe('delivered');
    expect(smtp.mails.filter((mail) => mail.to.includes('ap@kommune-nord.example'))).toEqual([]);

    // Asked for explicitly, a copy is e-mailed (docs/api.md "E-invoices").
    const sent = await api.post(`${invoicePath(invoice.uuid)}send/`, {});
    expectStatus(sent, 200);
    await waitFor(() => (smtp.mails.some((mail) => mail.to.includes('ap@kommune-nord.example')) ? true : undefined), {
      timeoutMs: 20_000,
      description: 'the copy asked for',
    });
    expect(mine()).toHaveLength(3);
  }, 180_000);

  it('GET …/ubl/ is 404 for an invoice that is not an e-invoice, and for another organization’s e-invoice', async () => {
    const { api } = await seller();
    const ean = await invoiceFixture(api, { account: EAN_ACCOUNT });
    const plain = await invoiceFixture(api);
    const { invoice } = await subscribeAndInvoice(api, ean, { quantity: 1 });
    const { invoice: mailed } = await subscribeAndInvoice(api, plain, { quantity: 1 });

    const notEinvoice = await api.get(`${invoicePath(mailed.uuid)}ubl/`);
    expectStatus(notEinvoice, 404);
    expect(notEinvoice.body).toEqual({ detail: 'Not found.' });
    const other = await newOrganization(platform);
    const foreign = await other.api.get(`${invoicePath(invoice.uuid)}ubl/`);
    expectStatus(foreign, 404);
    expect(foreign.body).toEqual({ detail: 'Not found.' });
    expectStatus(await api.get(`${invoicePath(invoice.uuid)}ubl/`), 200);
  }, 120_000);

  it('the organization’s imported field mappings fill the document; an e-invoice already made keeps its own', async () => {
    const { api, organizationId } = await seller();
    const ean = await invoiceFixture(api, { account: EAN_ACCOUNT });
    const { invoice: before } = await subscribeAndInvoice(api, ean, { quantity: 1 });
    const beforeXml = (await api.get(`${invoicePath(before.uuid)}ubl/`)).text;
    // The defaults: no reference person on the line, so the account's code is the buyer reference.
    expect(ublText(parseUbl(beforeXml), 'cbc:BuyerReference')).toBe(ean.code);
    expect(ublText(parseUbl(beforeXml), 'cbc:AccountingCost')).toBe(ean.code);

    const folder = await mkdtemp(path.join(tmpdir(), 'mappings-'));
    const file = path.join(folder, 'mappings.csv');
    await writeFile(
      file,
      [
        'format,target_field,source_type,source_builtin_field,source_custom_field',
        'peppol_bis,buyer_reference,builtin,invoice_number,',
        'peppol_bis,order_reference,builtin,account_code,',
        'peppol_bis,accounting_cost,custom_field,,3f1d2c4b-5a69-4c2b-9a8e-0d1f6c1e5a55',
        '',
      ].join('\r\n'),
    );
    await platform.admin('import-einvoice-field-mappings', '--org', organizationId, '--file', file);

    expect((await api.get(`${invoicePath(before.uuid)}ubl/`)).text).toBe(beforeXml);
    const { invoice: after } = await subscribeAndInvoice(api, ean, { quantity: 1 });
    const afterXml = (await api.get(`${invoicePath(after.uuid)}ubl/`)).text;
    expect(bisViolations(afterXml)).toEqual([]);
    const root = parseUbl(afterXml);
    expect(ublText(root, 'cbc:BuyerReference')).toBe(String(after.invoice_number));
    expect(ublText(root, 'cac:OrderReference/cbc:ID')).toBe(ean.code);
    // The custom field is on no line: BT-19 is left out.
    expect(ublAll(root, 'cbc:AccountingCost')).toEqual([]);
  }, 120_000);

  // Last: it moves the platform's (real) clock.
  it('on the real clock the delivery worker delivers at once, and retries a minute after a failure', async () => {
    const { api, organizationId } = await newOrganization(platform);
    await platform.admin('update-org', '--org', organizationId, '--vat-number', 'DK12345678');
    const ean = await invoiceFixture(api, { account: EAN_ACCOUNT });
    // The first attempt at each invoice from now on is refused (500), the next accepted.
    const refusedOnce = new Set<string>();
    accessPoint.answer((request) => {
      const invoice = String(request.headers['idempotency-key']);
      if (refusedOnce.has(invoice)) return 202;
      refusedOnce.add(invoice);
      return 500;
    });
    const subscription = await subscribeAndInvoice(api, ean, { quantity: 1 });
    const key = subscription.invoice.uuid;
    const forThis = () => accessPoint.received.filter((request) => request.headers['idempotency-key'] === key);
    const status = async () => (await api.get(invoicePath(key))).body.einvoice_status;

    // The first attempt, right after the issue, was refused: pending, due again in a minute.
    await waitFor(async () => (forThis().length === 1 && (await status()) === 'pending' ? true : undefined), {
      timeoutMs: 20_000,
      description: 'the first attempt',
    });
    platform.clock.advanceSeconds(60);
    await waitFor(async () => ((await status()) === 'delivered' ? true : undefined), {
      timeoutMs: 20_000,
      description: 'the retry',
    });
    expect(forThis()).toHaveLength(2);
    expect(bisViolations(forThis()[1]!.body)).toEqual([]);
  }, 60_000);
});
