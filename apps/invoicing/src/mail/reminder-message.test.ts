import { describe, expect, it } from 'vitest';
import { invoiceViewOf } from '../../test/support/invoice-view.js';
import type { InvoiceReminderView } from '../domain/reminders/reminder-view.js';
import { reminderMessage } from './reminder-message.js';

const invoice = invoiceViewOf({
  uuid: '6f1c2d7e-1a0b-4c3d-9e8f-000000000001',
  invoice_number: '12',
  date: '2026-01-15',
  due_date: '2026-01-29',
  currency: 'DKK',
  total: '1250.00',
  balance: '1000.00',
  seller: { name: 'Nordlys ApS', email: 'faktura@nordlys.dk' },
  language: 'da',
});
const pdf = Buffer.from('%PDF-1.3 test');
const reminder: InvoiceReminderView = {
  number: 2,
  date: '2026-02-08',
  days_after_due: 10,
  fee: '100.00',
  fee_draft_line: '6f1c2d7e-1a0b-4c3d-9e8f-000000000002',
  recipients: ['ada@kunde.dk'],
  created_date: new Date('2026-02-08T09:00:00Z'),
};

describe('reminderMessage', () => {
  it('writes a Danish reminder of the balance still owed with its fee, the invoice PDF attached', () => {
    expect(
      reminderMessage(
        invoice,
        reminder,
        pdf,
        [{ email: 'ada@kunde.dk', name: 'Ada' }],
        'billing@nordlys.dk',
        'faktura@nordlys.dk',
      ),
    ).toEqual({
      from: { name: 'Nordlys ApS', address: 'billing@nordlys.dk' },
      replyTo: 'faktura@nordlys.dk',
      to: [{ name: 'Ada', address: 'ada@kunde.dk' }],
      subject: 'Rykker 2: faktura 12 fra Nordlys ApS',
      text:
        'Hej,\n\nVi har endnu ikke modtaget betaling for faktura 12 fra Nordlys ApS, som forfaldt til betaling den 2026-01-29.\n\n' +
        'Skyldigt beløb: 1.000,00 DKK\nForfaldsdato: 2026-01-29\n\n' +
        'Der er pålagt et rykkergebyr på 100,00 DKK, som opkræves på en senere faktura.\n\n' +
        'Har du allerede betalt, kan du se bort fra denne rykker.\n\nVenlig hilsen\nNordlys ApS\n',
      attachments: [{ filename: 'invoice-12.pdf', content: pdf, contentType: 'application/pdf' }],
    });
  });

  it('writes an English reminder without a fee line when there is no fee', () => {
    const message = reminderMessage(
      { ...invoice, language: 'en' },
      { ...reminder, number: 1, fee: null, fee_draft_line: null },
      pdf,
      [{ email: 'ada@kunde.dk' }],
      'billing@nordlys.dk',
      '',
    );
    expect(message.replyTo).toBeUndefined();
    expect(message.subject).toBe('Reminder 1: invoice 12 from Nordlys ApS');
    expect(message.text).toBe(
      'Hello,\n\nWe have not yet received payment of invoice 12 from Nordlys ApS, which fell due on 2026-01-29.\n\n' +
        'Amount due: 1,000.00 DKK\nDue date: 2026-01-29\n\n' +
        'If you have already paid, please disregard this reminder.\n\nKind regards,\nNordlys ApS\n',
    );
  });
});
