/**
 * The invoice PDF (docs/invoicing.md "E-mail and PDF") as a customer reads it, for invoices made
 * through the API: the seller block with the organization's settings (set with the admin command
 * line), the amount due, the payment details (bank account, reference, due date), unit prices with
 * the currency's decimals, numbers the language's way and proration lines that say their share of
 * the period, in Danish and English. The PDF's text is read back with unpdf.
 */
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import {
  createAccount,
  createPlan,
  createPlanTerms,
  expectStatus,
  type Json,
  newOrganization,
  uniqueCode,
  usePlatform,
} from './helpers.js';
import { INVOICES, invoicePath } from './invoices-helpers.js';
import { subscriptionPath } from './subscriptions-helpers.js';

const platform = usePlatform();

/** A Danish seller on a test clock, its settings made with the admin command line. */
async function nordlys(time: string) {
  const organization = await newOrganization(platform(), { test_clock_time: time });
  const admin = (...args: string[]) => platform().admin(...args);
  await admin(
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
  return { ...organization, admin, advance };
}

async function subscribe(api: ApiClient, code: string, body: Json) {
  const response = await api.post('/api/v1/subscriptions/', { account: code, collection_method: 'invoice', ...body });
  expectStatus(response, 201);
  return response.body as Json & { uuid: string };
}

/** The text of an invoice's PDF as GET /api/v1/invoices/{uuid}/ serves it, line by line. */
async function pdfText(api: ApiClient, number: number): Promise<string[]> {
  const list = await api.get(`${INVOICES}?invoice_number=${number}`);
  expectStatus(list, 200);
  const detail = await api.get(invoicePath(list.body.results[0].uuid));
  expectStatus(detail, 200);
  const pdf = new Uint8Array(Buffer.from(detail.body.pdf_base64 as string, 'base64'));
  const { text } = await extractText(await getDocumentProxy(pdf), { mergePages: true });
  return text.split('\n');
}

describe('the invoice PDF', () => {
  it('a Danish invoice: seller block, amounts the Danish way, amount due, payment details, proration in Danish', async () => {
    const org = await nordlys('2026-02-01T09:00:00.000Z');
    await org.admin(
      'add-bank-account',
      '--org',
      org.organizationId,
      '--reg-number',
      '1234',
      '--account-number',
      '0001234567',
    );
    const account = await createAccount(org.api, uniqueCode(), {
      company_name: 'Kunde A/S',
      legal_address: 'Østergade 12',
      legal_zipcode: '8000',
      legal_city: 'Aarhus C',
      legal_country: 'DK',
      language: 'da',
    });
    const plan = await createPlan(org.api, uniqueCode('plan'), { name: 'Pro' });
    const terms = await createPlanTerms(org.api, plan.uuid, { price: '1000', currency: 'DKK', code: 'monthly' });
    const subscription = await subscribe(org.api, account.code as string, { terms: terms.uuid, quantity: 2 });
    await org.advance('2026-02-11T12:00:00.000Z');
    expectStatus(await org.api.patch(subscriptionPath(subscription.uuid), { quantity: 3 }), 200);
    await org.advance('2026-02-11T12:00:00.000Z');

    expect(await pdfText(org.api, 1)).toEqual([
      'Faktura',
      'Fakturanummer 1',
      'Fakturadato 2026-02-01',
      'Forfaldsdato 2026-02-15',
      'Fra',
      'Nordlys ApS',
      'Vesterbrogade 1',
      '1620 København V',
      'Danmark',
      'Momsnr. DK12345678',
      'faktura@nordlys.dk',
      'Til',
      'Kunde A/S',
      'Østergade 12',
      '8000 Aarhus C',
      'Danmark',
      'Beskrivelse Antal Enhedspris Moms Beløb DKK',
      'Pro (monthly)',
      'Periode 2026-02-01 – 2026-02-28',
      // Unit price "1000" with the currency's two decimals, every number the Danish way.
      '2 1.000,00 25,00% 2.000,00',
      'I alt ekskl. moms 2.000,00 DKK',
      'Moms 500,00 DKK',
      'I alt 2.500,00 DKK',
      'Til betaling 2.500,00 DKK',
      'Betalingsoplysninger',
      'Reg.nr. 1234',
      'Kontonr. 0001234567',
      'Betalingsreference 1',
      'Forfaldsdato 2026-02-15',
      'Momsspecifikation',
      'Momssats Momsgrundlag Moms',
      '25,00% 2.000,00 DKK 500,00 DKK',
      'Betalingsbetingelser: 14 dage',
      'Side 1 af 1',
    ]);
    // 18 of February's 28 days remain: 2 × 1000 × 18/28 = 1285.71 credited, 3 × 1000 × 18/28 =
    // 1928.57 charged; VAT 25 % of 642.86 = 160.715 → 160.72.
    expect(await pdfText(org.api, 2)).toEqual([
      'Faktura',
      'Fakturanummer 2',
      'Fakturadato 2026-02-11',
      'Forfaldsdato 2026-02-25',
      'Fra',
      'Nordlys ApS',
      'Vesterbrogade 1',
      '1620 København V',
      'Danmark',
      'Momsnr. DK12345678',
      'faktura@nordlys.dk',
      'Til',
      'Kunde A/S',
      'Østergade 12',
      '8000 Aarhus C',
      'Danmark',
      'Beskrivelse Antal Enhedspris Moms Beløb DKK',
      'Pro (monthly), Kredit for ubrugt tid, 18 af 28 dage',
      'Periode 2026-02-11 – 2026-02-28',
      '2 1.000,00 25,00% -1.285,71',
      'Pro (monthly), Resterende tid, 18 af 28 dage',
      'Periode 2026-02-11 – 2026-02-28',
      '3 1.000,00 25,00% 1.928,57',
      'I alt ekskl. moms 642,86 DKK',
      'Moms 160,72 DKK',
      'I alt 803,58 DKK',
      'Til betaling 803,58 DKK',
      'Betalingsoplysninger',
      'Reg.nr. 1234',
      'Kontonr. 0001234567',
      'Betalingsreference 2',
      'Forfaldsdato 2026-02-25',
      'Momsspecifikation',
      'Momssats Momsgrundlag Moms',
      '25,00% 642,86 DKK 160,72 DKK',
      'Betalingsbetingelser: 14 dage',
      'Side 1 af 1',
    ]);
  }, 120_000);

  it('an English invoice in ISK: no decimals, amounts the English way, an IBAN, proration in English, paid', async () => {
    const org = await nordlys('2026-02-01T09:00:00.000Z');
    await org.admin(
      'add-bank-account',
      '--org',
      org.organizationId,
      '--iban',
      'DK5000400440116243',
      '--bic',
      'DABADKKK',
    );
    const account = await createAccount(org.api, uniqueCode(), {
      company_name: 'Example Ltd',
      legal_address: 'Nørregade 10',
      legal_zipcode: '1165',
      legal_city: 'København K',
      legal_country: 'DK',
      language: 'en',
    });
    const plan = await createPlan(org.api, uniqueCode('plan'), { name: 'Pro' });
    const terms = await createPlanTerms(org.api, plan.uuid, { price: '14990', currency: 'ISK', code: 'monthly' });
    const subscription = await subscribe(org.api, account.code as string, { terms: terms.uuid, quantity: 1 });
    await org.advance('2026-02-11T12:00:00.000Z');
    expectStatus(await org.api.patch(subscriptionPath(subscription.uuid), { quantity: 2 }), 200);
    await org.advance('2026-02-11T12:00:00.000Z');
    const [first] = (await org.api.get(`${INVOICES}?invoice_number=1`)).body.results;
    expectStatus(
      await org.api.post(`${invoicePath(first.uuid)}register-payment/`, { registration_date: '2026-02-12' }),
      200,
    );

    // Paid in full: nothing is due any more.
    expect(await pdfText(org.api, 1)).toEqual([
      'Invoice',
      'Invoice number 1',
      'Invoice date 2026-02-01',
      'Due date 2026-02-15',
      'From',
      'Nordlys ApS',
      'Vesterbrogade 1',
      '1620 København V',
      'Denmark',
      'VAT no. DK12345678',
      'faktura@nordlys.dk',
      'To',
      'Example Ltd',
      'Nørregade 10',
      '1165 København K',
      'Denmark',
      'Description Quantity Unit price VAT Amount ISK',
      'Pro (monthly)',
      'Period 2026-02-01 – 2026-02-28',
      '1 14,990 25.00% 14,990',
      'Subtotal excl. VAT 14,990 ISK',
      'VAT 3,748 ISK',
      'Total 18,738 ISK',
      'Amount due 0 ISK',
      'Payment details',
      'IBAN DK50 0040 0440 1162 43',
      'BIC DABADKKK',
      'Payment reference 1',
      'Due date 2026-02-15',
      'VAT breakdown',
      'VAT rate Taxable amount VAT',
      '25.00% 14,990 ISK 3,748 ISK',
      'Payment terms: 14 days',
      'Page 1 of 1',
    ]);
    // ISK has no decimals: 14990 × 18/28 = 9636.43 → 9636 credited, 2 × 14990 × 18/28 = 19272.86 →
    // 19273 charged; VAT 25 % of 9637 = 2409.25 → 2409.
    expect(await pdfText(org.api, 2)).toEqual([
      'Invoice',
      'Invoice number 2',
      'Invoice date 2026-02-11',
      'Due date 2026-02-25',
      'From',
      'Nordlys ApS',
      'Vesterbrogade 1',
      '1620 København V',
      'Denmark',
      'VAT no. DK12345678',
      'faktura@nordlys.dk',
      'To',
      'Example Ltd',
      'Nørregade 10',
      '1165 København K',
      'Denmark',
      'Description Quantity Unit price VAT Amount ISK',
      'Pro (monthly), Credit for unused time, 18 of 28 days',
      'Period 2026-02-11 – 2026-02-28',
      '1 14,990 25.00% -9,636',
      'Pro (monthly), Remaining time, 18 of 28 days',
      'Period 2026-02-11 – 2026-02-28',
      '2 14,990 25.00% 19,273',
      'Subtotal excl. VAT 9,637 ISK',
      'VAT 2,409 ISK',
      'Total 12,046 ISK',
      'Amount due 12,046 ISK',
      'Payment details',
      'IBAN DK50 0040 0440 1162 43',
      'BIC DABADKKK',
      'Payment reference 2',
      'Due date 2026-02-25',
      'VAT breakdown',
      'VAT rate Taxable amount VAT',
      '25.00% 9,637 ISK 2,409 ISK',
      'Payment terms: 14 days',
      'Page 1 of 1',
    ]);
  }, 120_000);
});
