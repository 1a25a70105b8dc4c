import { describe, expect, it } from 'vitest';
import { invoiceViewOf } from '../../test/support/invoice-view.js';
import { attachmentName, invoiceMessage } from './invoice-message.js';

const invoice = invoiceViewOf({
  uuid: '6f1c2d7e-1a0b-4c3d-9e8f-000000000001',
  invoice_number: '12',
  date: '2026-01-15',
  due_date: '2026-01-29',
  currency: 'DKK',
  total: '1250.00',
  seller: { name: 'Nordlys ApS', email: 'faktura@nordlys.dk' },
  language: 'da',
});
const pdf = Buffer.from('%PDF-1.3 test');

describe('invoiceMessage', () => {
  it('writes a Danish invoice mail from the seller with the PDF attached', () => {
    expect(
      invoiceMessage(
        invoice,
        pdf,
        [{ email: 'ada@kunde.dk', name: 'Ada' }, { email: 'bo@kunde.dk' }],
        'billing@nordlys.dk',
        'faktura@nordlys.dk',
      ),
    ).toEqual({
      from: { name: 'Nordlys ApS', address: 'billing@nordlys.dk' },
      replyTo: 'faktura@nordlys.dk',
      to: [
        { name: 'Ada', address: 'ada@kunde.dk' },
        { name: '', address: 'bo@kunde.dk' },
      ],
      subject: 'Faktura 12 fra Nordlys ApS',
      text: 'Hej,\n\nVedhæftet finder du faktura 12 fra Nordlys ApS.\n\nI alt: 1.250,00 DKK\nForfaldsdato: 2026-01-29\n\nVenlig hilsen\nNordlys ApS\n',
      attachments: [{ filename: 'invoice-12.pdf', content: pdf, contentType: 'application/pdf' }],
    });
  });

  it('writes a credit note mail in English, also for languages without texts, without a reply-to when the organization has no e-mail', () => {
    const creditNote = {
      ...invoice,
      invoice_number: '13',
      is_credit_note: true,
      total: '-1250.00',
      language: 'nl',
      seller: { ...invoice.seller!, email: '' },
    };
    const message = invoiceMessage(creditNote, pdf, [{ email: 'ada@kunde.dk' }], 'billing@nordlys.dk', '');
    expect(message.replyTo).toBeUndefined();
    expect(message.subject).toBe('Credit note 13 from Nordlys ApS');
    expect(message.text).toBe(
      'Hello,\n\nPlease find attached credit note 13 from Nordlys ApS.\n\nTotal: -1,250.00 DKK\n\nKind regards,\nNordlys ApS\n',
    );
    expect(attachmentName(creditNote)).toBe('credit-note-13.pdf');
  });

  it('refuses a computed invoice without a number', () => {
    const upcoming = { ...invoice, invoice_number: null };
    expect(() => invoiceMessage(upcoming, pdf, [{ email: 'ada@kunde.dk' }], 'billing@nordlys.dk', '')).toThrowError(
      'invoice 6f1c2d7e-1a0b-4c3d-9e8f-000000000001 has no number to mail',
    );
  });
});
