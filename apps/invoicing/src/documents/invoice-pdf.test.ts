import { VAT_REASON_TEXT } from '@billing/tax';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { invoiceViewOf } from '../../test/support/invoice-view.js';
import { renderInvoicePdf } from './invoice-pdf.js';

const seller = {
  name: 'Nordlys ApS',
  address: 'Vesterbrogade 1',
  zipcode: '1620',
  city: 'København V',
  country: 'DK',
  vat_number: 'DK12345678',
  email: 'faktura@nordlys.dk',
};

/** A Danish customer: 25 % VAT, two lines, one with a description long enough to wrap. */
const danishInvoice = invoiceViewOf({
  uuid: '6f1c2d7e-1a0b-4c3d-9e8f-000000000001',
  invoice_number: '12',
  date: '2026-01-15',
  due_date: '2026-01-29',
  currency: 'DKK',
  status: 'open',
  subtotal: '1234.50',
  vat: '308.63',
  total: '1543.13',
  balance: '1543.13',
  created_date: new Date('2026-01-15T08:00:00Z'),
  pay_to_bank_account: 7,
  bank_account: { id: 7, iban: '', bic: '', reg_number: '1234', account_number: '0001234567' },
  payment_terms: 14,
  vat_breakdown: [{ rate: '25.00', base: '1234.50', vat: '308.63' }],
  seller,
  buyer: {
    name: 'Søren Ærø Å/S',
    address: 'Østergade 12, 2. th.',
    zipcode: '8000',
    city: 'Aarhus C',
    country: 'DK',
    vat_number: 'DK87654321',
  },
  language: 'da',
  po_number: 'PO-7781',
  lines: [
    {
      description: 'Pro månedlig',
      date_from: '2026-01-15',
      date_to: '2026-02-14',
      price: '100.00',
      quantity: '2',
      subtotal: '200.00',
      vat_rate: '25.00',
    },
    {
      description:
        'Support og rådgivning: opsætning af integration til økonomisystemet, gennemgang af fakturaflow og kursus for tre medarbejdere på kontoret i Aarhus',
      date_from: '2026-01-01',
      date_to: '2026-01-31',
      price: '103.45',
      quantity: '10',
      subtotal: '1034.50',
      vat_rate: '25.00',
    },
  ],
});

/** A German business customer of a Danish seller: reverse charge, VAT 0, a negative document. */
const reverseChargeCreditNote = invoiceViewOf({
  uuid: '6f1c2d7e-1a0b-4c3d-9e8f-000000000002',
  invoice_number: '13',
  date: '2026-02-03',
  due_date: '2026-02-03',
  currency: 'EUR',
  status: 'open',
  subtotal: '-80.00',
  vat: '0.00',
  total: '-80.00',
  balance: '-80.00',
  created_date: new Date('2026-02-03T10:30:00Z'),
  is_credit_note: true,
  payment_terms: 0,
  vat_breakdown: [{ rate: '0.00', base: '-80.00', vat: '0.00' }],
  reverse_charge: true,
  seller,
  buyer: {
    name: 'Müller GmbH',
    address: 'Friedrichstraße 10',
    zipcode: '10117',
    city: 'Berlin',
    country: 'DE',
    vat_number: 'DE123456789',
  },
  language: 'en',
  lines: [
    {
      description: 'Credit for unused time: Pro monthly',
      date_from: '2026-02-03',
      date_to: '2026-02-14',
      price: '-40.00',
      quantity: '2',
      subtotal: '-80.00',
      vat_rate: '0.00',
    },
  ],
});

async function textOf(pdf: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
  return text;
}

interface Box {
  page: number;
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Every non-blank text run with its box, to check the layout without looking at the page. */
async function boxesOf(pdf: Buffer): Promise<{ pages: number; boxes: Box[] }> {
  const proxy = await getDocumentProxy(new Uint8Array(pdf));
  const boxes: Box[] = [];
  for (let page = 1; page <= proxy.numPages; page++) {
    const content = await (await proxy.getPage(page)).getTextContent();
    for (const item of content.items) {
      if (!('str' in item) || item.str.trim() === '') continue;
      boxes.push({
        page,
        text: item.str,
        x: item.transform[4],
        y: item.transform[5],
        width: item.width,
        height: item.height,
      });
    }
  }
  return { pages: proxy.numPages, boxes };
}

const overlap = (a: Box, b: Box) =>
  a.page === b.page && a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('renderInvoicePdf', () => {
  it('writes a Danish invoice in Danish: parties, number, dates, lines with periods, VAT, totals, terms', async () => {
    expect(await textOf(await renderInvoicePdf(danishInvoice))).toBe(
      [
        'Faktura',
        'Fakturanummer 12',
        'Fakturadato 2026-01-15',
        'Forfaldsdato 2026-01-29',
        'Rekvisitionsnummer PO-7781',
        'Fra',
        'Nordlys ApS',
        'Vesterbrogade 1',
        '1620 København V',
        'Danmark',
        'Momsnr. DK12345678',
        'faktura@nordlys.dk',
        'Til',
        'Søren Ærø Å/S',
        'Østergade 12, 2. th.',
        '8000 Aarhus C',
        'Danmark',
        'Momsnr. DK87654321',
        'Beskrivelse Antal Enhedspris Moms Beløb DKK',
        'Pro månedlig',
        'Periode 2026-01-15 – 2026-02-14',
        '2 100,00 25,00% 200,00',
        // The long description wraps inside its column.
        'Support og rådgivning: opsætning af integration til',
        'økonomisystemet, gennemgang af fakturaflow og',
        'kursus for tre medarbejdere på kontoret i Aarhus',
        'Periode 2026-01-01 – 2026-01-31',
        '10 103,45 25,00% 1.034,50',
        'I alt ekskl. moms 1.234,50 DKK',
        'Moms 308,63 DKK',
        'I alt 1.543,13 DKK',
        'Til betaling 1.543,13 DKK',
        'Betalingsoplysninger',
        'Reg.nr. 1234',
        'Kontonr. 0001234567',
        'Betalingsreference 12',
        'Forfaldsdato 2026-01-29',
        'Momsspecifikation',
        'Momssats Momsgrundlag Moms',
        '25,00% 1.234,50 DKK 308,63 DKK',
        'Betalingsbetingelser: 14 dage',
        'Side 1 af 1',
      ].join('\n'),
    );
  });

  it('writes an English credit note with the reverse-charge sentence and payment on receipt', async () => {
    expect(await textOf(await renderInvoicePdf(reverseChargeCreditNote))).toBe(
      [
        'Credit note',
        'Credit note number 13',
        'Credit note date 2026-02-03',
        'Due date 2026-02-03',
        'From',
        'Nordlys ApS',
        'Vesterbrogade 1',
        '1620 København V',
        'Denmark',
        'VAT no. DK12345678',
        'faktura@nordlys.dk',
        'To',
        'Müller GmbH',
        'Friedrichstraße 10',
        '10117 Berlin',
        'Germany',
        'VAT no. DE123456789',
        'Description Quantity Unit price VAT Amount EUR',
        'Credit for unused time: Pro monthly',
        'Period 2026-02-03 – 2026-02-14',
        '2 -40.00 0.00% -80.00',
        'Subtotal excl. VAT -80.00 EUR',
        'VAT 0.00 EUR',
        'Total -80.00 EUR',
        'VAT breakdown',
        'VAT rate Taxable amount VAT',
        '0.00% -80.00 EUR 0.00 EUR',
        // Longer than the page is wide: it wraps.
        'Reverse charge: the buyer, registered for VAT in another EU member state, accounts for the VAT (Council Directive',
        '2006/112/EC, article 196).',
        'Payment terms: on receipt',
        'Page 1 of 1',
      ].join('\n'),
    );
  });

  it("prints the invoice's VAT note: @billing/tax's sentence in the document's language, any other as it is", async () => {
    const danish = await textOf(
      await renderInvoicePdf({ ...danishInvoice, vat_note: VAT_REASON_TEXT.eu_reverse_charge, reverse_charge: true }),
    );
    expect(danish).toContain(
      '\nOmvendt betalingspligt: køber, der er momsregistreret i en anden EU-medlemsstat, afregner momsen (Rådets direktiv\n2006/112/EF, artikel 196).\nBetalingsbetingelser: 14 dage\n',
    );
    const own = 'Reverse charge – Article 196 VAT Directive; customer VAT no. DE123456789.';
    const english = await textOf(await renderInvoicePdf({ ...reverseChargeCreditNote, vat_note: own }));
    expect(english).toContain(`\n${own}\nPayment terms: on receipt\n`);
    expect(english).not.toContain('Council');
  });

  it('falls back to English for a language without texts (de), and writes one day of terms in the singular', async () => {
    const text = await textOf(await renderInvoicePdf({ ...danishInvoice, language: 'de', payment_terms: 1 }));
    expect(text.split('\n').slice(0, 5)).toEqual([
      'Invoice',
      'Invoice number 12',
      'Invoice date 2026-01-15',
      'Due date 2026-01-29',
      'PO number PO-7781',
    ]);
    expect(text).toContain('\nDescription Quantity Unit price VAT Amount DKK\n');
    expect(text).toContain(
      '\nSubtotal excl. VAT 1,234.50 DKK\nVAT 308.63 DKK\nTotal 1,543.13 DKK\nAmount due 1,543.13 DKK\n',
    );
    expect(text).toContain('\nPayment terms: 1 day\nPage 1 of 1');
    expect(text).toContain('\nDenmark\n');
    expect(text).not.toContain('Faktura');
  });

  it('prints an IBAN in groups of four with its BIC, unit prices with the currency decimals (ISK none)', async () => {
    const euro = await textOf(
      await renderInvoicePdf(
        invoiceViewOf({
          ...danishInvoice,
          language: 'en',
          bank_account: { id: 8, iban: 'DK5000400440116243', bic: 'DABADKKK', reg_number: '', account_number: '' },
          lines: [{ ...danishInvoice.lines[0]!, price: '100', quantity: '1.5', subtotal: '150.00' }],
        }),
      ),
    );
    expect(euro).toContain('\n1.5 100.00 25.00% 150.00\n');
    expect(euro).toContain(
      '\nPayment details\nIBAN DK50 0040 0440 1162 43\nBIC DABADKKK\nPayment reference 12\nDue date 2026-01-29\n',
    );
    const krona = await textOf(
      await renderInvoicePdf(
        invoiceViewOf({
          ...danishInvoice,
          currency: 'ISK',
          bank_account: undefined,
          subtotal: '14990',
          vat: '3748',
          total: '18738',
          balance: '0',
          vat_breakdown: [{ rate: '25.00', base: '14990', vat: '3748' }],
          lines: [{ ...danishInvoice.lines[0]!, price: '1499', quantity: '10', subtotal: '14990' }],
        }),
      ),
    );
    expect(krona).toContain('\n10 1.499 25,00% 14.990\n');
    // Paid: nothing is due. Without a bank account the reference and the due date remain.
    expect(krona).toContain(
      '\nI alt 18.738 ISK\nTil betaling 0 ISK\nBetalingsoplysninger\nBetalingsreference 12\nForfaldsdato 2026-01-29\n',
    );
  });

  it('renders the same invoice to the same bytes', async () => {
    const first = await renderInvoicePdf(danishInvoice);
    const second = await renderInvoicePdf(structuredClone(danishInvoice));
    expect(first.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(second.equals(first)).toBe(true);
    const later = await renderInvoicePdf({ ...danishInvoice, created_date: new Date('2026-01-16T08:00:00Z') });
    expect(later.equals(first)).toBe(false);
  });

  it('continues a long invoice on more pages: the table header repeats, no text overlaps or leaves the page', async () => {
    const lines = Array.from({ length: 45 }, (_, i) => ({
      ...danishInvoice.lines[i % 2]!,
      description: `${i + 1}. ${danishInvoice.lines[i % 2]!.description}`,
    }));
    const pdf = await renderInvoicePdf({ ...danishInvoice, lines });
    const { pages, boxes } = await boxesOf(pdf);
    expect(pages).toBe(4);
    const text = await textOf(pdf);
    for (let page = 1; page <= pages; page++) expect(text).toContain(`Side ${page} af ${pages}`);
    // Page 1 has the table header under the parties; every later page that continues the table
    // starts with the document's name and the header again.
    const headers = boxes.filter((box) => box.text === 'Beskrivelse');
    expect(headers.map((box) => box.page)).toEqual([1, 2, 3, 4]);
    for (const header of headers.slice(1)) {
      expect(boxes.find((box) => box.page === header.page)?.text).toBe('Faktura 12');
    }
    // Every line's number appears once and in order.
    const numbered = boxes.filter((box) => /^\d+\. /.test(box.text)).map((box) => Number.parseInt(box.text, 10));
    expect(numbered).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
    // A4 is 595.28 x 841.89 points, y counted up from the bottom edge to a text's baseline;
    // nothing is drawn outside the 50 pt side and top margins (Helvetica's ascender is 0.718 of
    // the font size tall) and only the footer goes below the content area.
    for (const box of boxes) {
      expect(box.x).toBeGreaterThanOrEqual(49.9);
      expect(box.x + box.width).toBeLessThanOrEqual(545.4);
      expect(box.y + 0.718 * box.height).toBeLessThanOrEqual(841.89 - 50 + 0.1);
      expect(box.y).toBeGreaterThanOrEqual(box.text.startsWith('Side ') ? 40 : 90);
    }
    const overlapping = boxes.flatMap((a, i) =>
      boxes
        .slice(i + 1)
        .filter((b) => overlap(a, b))
        .map((b) => [a.text, b.text]),
    );
    expect(overlapping).toEqual([]);
  });
});
