/**
 * Issue 13, payment reminders, through HTTP on a test clock with a real SMTP server: open invoices
 * collected by invoice are reminded 3, 10 and 20 days after their due date (the organization's
 * default schedule) to the recipients of invoices, in the account's language, each reminder on
 * the invoice's reminder_set, published as invoice.reminder_sent and with the organization's fee
 * as a draft line; none once the invoice is paid, none for an account with is_getting_reminders
 * false (docs/api.md "Payment reminders").
 */
import { waitFor } from '@billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { type CapturedMail, startSmtpCapture } from '../support/smtp-capture.js';
import { createAccount, createRecipient, expectStatus, type Json, newOrganization, uniqueCode } from './helpers.js';
import { actionPath, DRAFT_LINES, generateInvoicePath, invoicePath } from './invoices-helpers.js';

let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let platform: TestPlatform;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  platform = await startTestPlatform({ smtpUrl: smtp.url });
});

afterAll(async () => {
  await platform?.stop();
  await smtp?.stop();
});

/** The mails sent to `address` so far, once there are `count` of them. */
const mailsTo = (address: string, count: number): Promise<CapturedMail[]> =>
  waitFor(
    () => {
      const found = smtp.mails.filter((mail) => mail.to.includes(address));
      return found.length >= count ? found : undefined;
    },
    { timeoutMs: 20_000, description: `${count} mails to ${address}` },
  );

const ENGLISH_BODY = (fee: boolean) =>
  'Hello,\n\nWe have not yet received payment of invoice 1 from Nordlys ApS, which fell due on 2026-01-29.\n\n' +
  'Amount due: 250.00 DKK\nDue date: 2026-01-29\n\n' +
  (fee
    ? 'A reminder fee of 100.00 DKK has been added to your account and will be charged on a later invoice.\n\n'
    : '') +
  'If you have already paid, please disregard this reminder.\n\nKind regards,\nNordlys ApS\n';

describe('payment reminders on the test clock', () => {
  it('reminds on days 3, 10 and 20 after the due date, stops once paid, never for an account without reminders', async () => {
    const { api, organizationId } = await newOrganization(platform, {
      name: 'Nordlys ApS',
      test_clock_time: '2026-01-15T09:00:00Z',
      default_payment_terms: 14,
    });
    await platform.admin('update-org', '--org', organizationId, '--reminder-fee', '100.00');
    const advance = async (to: string) => expectStatus(await api.post('/api/v1/test-clock/advance/', { to }), 200);

    // Three accounts, one invoice each (200.00 + 25 % VAT), numbered 1, 2, 3, due 2026-01-29.
    const accounts = {
      english: await createAccount(api, uniqueCode('en'), { company_name: 'Kunde Ltd', language: 'en' }),
      danish: await createAccount(api, uniqueCode('da'), { company_name: 'Kunde A/S', language: 'da' }),
      silent: await createAccount(api, uniqueCode('no'), { company_name: 'Quiet Ltd', is_getting_reminders: false }),
    };
    const addresses = { english: 'ap@kunde.example', danish: 'bogholderi@kunde.example', silent: 'ap@quiet.example' };
    const invoices: Record<string, Json> = {};
    for (const key of ['english', 'danish', 'silent'] as const) {
      const account = accounts[key];
      await createRecipient(api, account.uuid as string, { email: addresses[key], receive_invoice: true });
      // A recipient of subscription notifications only gets no reminder.
      await createRecipient(api, account.uuid as string, {
        email: `notices.${key}@kunde.example`,
        receive_invoice: false,
      });
      const line = { account: account.code, description: 'Consulting', vat_type: 'services', price: '200.00' };
      expectStatus(await api.post(DRAFT_LINES, line), 201);
      const generated = await api.post(generateInvoicePath(account.code as string), {});
      expectStatus(generated, 200);
      invoices[key] = (generated.body as Json[])[0]!;
    }
    expect(Object.values(invoices).map((invoice) => [invoice.invoice_number, invoice.due_date, invoice.total])).toEqual(
      [
        [1, '2026-01-29', '250.00'],
        [2, '2026-01-29', '250.00'],
        [3, '2026-01-29', '250.00'],
      ],
    );
    for (const key of ['english', 'danish', 'silent'] as const) await mailsTo(addresses[key], 1);

    // Day 2 after the due date: nothing yet.
    await advance('2026-01-31T09:00:00Z');
    // Day 3: the first reminder of the English and Danish invoices, in their languages.
    await advance('2026-02-01T09:00:00Z');
    const [, english1] = await mailsTo(addresses.english, 2);
    expect(english1!.to).toEqual([addresses.english]);
    expect(english1!.subject).toBe('Reminder 1: invoice 1 from Nordlys ApS');
    expect(english1!.text).toBe(ENGLISH_BODY(true));
    const [, danish1] = await mailsTo(addresses.danish, 2);
    expect(danish1!.to).toEqual([addresses.danish]);
    expect(danish1!.subject).toBe('Rykker 1: faktura 2 fra Nordlys ApS');
    expect(danish1!.text).toBe(
      'Hej,\n\nVi har endnu ikke modtaget betaling for faktura 2 fra Nordlys ApS, som forfaldt til betaling den 2026-01-29.\n\n' +
        'Skyldigt beløb: 250,00 DKK\nForfaldsdato: 2026-01-29\n\n' +
        'Der er pålagt et rykkergebyr på 100,00 DKK, som opkræves på en senere faktura.\n\n' +
        'Har du allerede betalt, kan du se bort fra denne rykker.\n\nVenlig hilsen\nNordlys ApS\n',
    );

    // The Danish invoice is paid: no more reminders for it.
    expectStatus(
      await api.post(actionPath(invoices.danish!.uuid as string, 'register-payment'), {
        registration_date: '2026-02-02',
      }),
      200,
    );
    await advance('2026-02-07T09:00:00Z');
    await advance('2026-02-08T09:00:00Z');
    const [, , english2] = await mailsTo(addresses.english, 3);
    expect(english2!.subject).toBe('Reminder 2: invoice 1 from Nordlys ApS');
    await advance('2026-02-17T09:00:00Z');
    await advance('2026-02-18T09:00:00Z');
    const [, , , english3] = await mailsTo(addresses.english, 4);
    expect(english3!.subject).toBe('Reminder 3: invoice 1 from Nordlys ApS');
    expect(english3!.text).toBe(ENGLISH_BODY(true));
    // The schedule is done: a month later nothing more.
    await advance('2026-03-31T09:00:00Z');

    const reminderSet = async (key: string) => {
      const detail = await api.get(invoicePath(invoices[key]!.uuid as string));
      expectStatus(detail, 200);
      return detail.body.reminder_set as Json[];
    };
    const englishReminders = await reminderSet('english');
    expect(englishReminders).toEqual([
      reminder(1, '2026-02-01', 3, addresses.english, englishReminders[0]),
      reminder(2, '2026-02-08', 10, addresses.english, englishReminders[1]),
      reminder(3, '2026-02-18', 20, addresses.english, englishReminders[2]),
    ]);
    const danishReminders = await reminderSet('danish');
    expect(danishReminders).toEqual([reminder(1, '2026-02-01', 3, addresses.danish, danishReminders[0])]);
    expect(await reminderSet('silent')).toEqual([]);

    // Each reminder's e-mail was sent once (every job is sent in order, the last reminder's included).
    expect(smtp.mails.filter((mail) => mail.to.includes(addresses.english))).toHaveLength(4);
    expect(smtp.mails.filter((mail) => mail.to.includes(addresses.danish))).toHaveLength(2);
    expect(smtp.mails.filter((mail) => mail.to.includes(addresses.silent))).toHaveLength(1);
    expect(smtp.mails.filter((mail) => mail.to.some((to) => to.startsWith('notices.')))).toEqual([]);

    // The fees: a draft line per reminder on the account, in the invoice's currency and language, no VAT.
    const feeLines = async (key: keyof typeof accounts) => {
      const response = await api.get(`${DRAFT_LINES}?account=${accounts[key].code}&page_size=100`);
      expectStatus(response, 200);
      return (response.body.results as Json[]).map((line) => ({
        uuid: line.uuid,
        description: line.description,
        price: line.price,
        quantity: line.quantity,
        currency: line.currency,
        collect_vat: line.collect_vat,
      }));
    };
    const englishFees = await feeLines('english');
    expect(englishFees).toEqual(
      englishReminders.map((shown) => ({
        uuid: shown.fee_draft_line,
        description: 'Reminder fee, invoice 1',
        price: '100.00',
        quantity: '1.00',
        currency: 'DKK',
        collect_vat: false,
      })),
    );
    expect((await feeLines('danish')).map((line) => [line.description, line.price])).toEqual([
      ['Rykkergebyr, faktura 2', '100.00'],
    ]);
    expect(await feeLines('silent')).toEqual([]);

    // Published: invoice.reminder_sent with the invoice and its reminders so far.
    const published = (await platform.invoiceEvents(organizationId))
      .filter((event) => event.event_type === 'invoice.reminder_sent')
      .map((event) => [event.invoice.invoice_number, event.invoice.reminders.map((shown) => shown.date)]);
    expect(published).toEqual([
      ['1', ['2026-02-01']],
      ['2', ['2026-02-01']],
      ['1', ['2026-02-01', '2026-02-08']],
      ['1', ['2026-02-01', '2026-02-08', '2026-02-18']],
    ]);
  }, 180_000);
});

function reminder(number: number, date: string, days: number, to: string, shown: Json | undefined): Json {
  return {
    number,
    date,
    days_after_due: days,
    fee: '100.00',
    fee_draft_line: shown?.fee_draft_line,
    recipients: [to],
    created_date: `${date}T09:00:00.000Z`,
  };
}
