/**
 * Payment and card e-mails (gaps.md §11 "Recipients get e-mails by their flags") through a real
 * SMTP server, driven through HTTP on test clocks: a paid card invoice mails a confirmation to the
 * recipients with receive_payment_confirmation, in the account's language; each declined charge
 * mails a card notification to those with receive_payment_card_notifications, saying when the
 * next attempt comes, and the last one that none will. Each mail goes once.
 */
import { waitFor } from '@billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { type CapturedMail, startSmtpCapture } from '../support/smtp-capture.js';
import { createRecipient, expectStatus } from './helpers.js';
import { INVOICES, invoiceFixture, subscribe } from './invoices-helpers.js';
import { clockOrganization } from './subscriptions-helpers.js';

const CARDS = '/api/v1/paymentcards/';
const START = '2026-01-15T09:00:00.000Z';

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

const mailsTo = (address: string): CapturedMail[] => smtp.mails.filter((mail) => mail.to.includes(address));

/** The mails sent to `address` once there are `count` of them. */
const waitForMails = (address: string, count: number): Promise<CapturedMail[]> =>
  waitFor(
    () => {
      const found = mailsTo(address);
      return found.length >= count ? found : undefined;
    },
    { timeoutMs: 20_000, description: `${count} mails to ${address}` },
  );

describe('payment e-mails', () => {
  it('confirms a paid card invoice to the recipients with receive_payment_confirmation, in Danish', async () => {
    const organization = await clockOrganization(platform, START);
    await platform.admin('update-org', '--org', organization.organizationId, '--email', 'faktura@nordlys.dk');
    const { api } = organization;
    const fixture = await invoiceFixture(api, { account: { language: 'da' } });
    const account = fixture.account.uuid as string;
    await createRecipient(api, account, {
      email: 'betaler@kunde.example',
      receive_invoice: false,
      receive_payment_confirmation: true,
    });
    await createRecipient(api, account, {
      email: 'kort@kunde.example',
      receive_invoice: false,
      receive_payment_card_notifications: true,
    });
    expectStatus(await api.post(CARDS, { account, token: 'noop_visa', gateway: 'noop' }), 201);
    const subscription = await subscribe(api, fixture, { collection_method: 'payment_card' });
    await organization.advance(START);
    const invoice = (await api.get(`${INVOICES}?subscription_uuid=${subscription.uuid}`)).body.results[0];
    expect(invoice.status).toBe('paid');

    const [mail] = await waitForMails('betaler@kunde.example', 1);
    expect(mail!.to).toEqual(['betaler@kunde.example']);
    expect(mail!.headers.get('from')).toBe('Test Organization <billing@example.invalid>');
    expect(mail!.headers.get('reply-to')).toBe('faktura@nordlys.dk');
    expect(mail!.subject).toBe(`Betaling modtaget for faktura ${invoice.invoice_number}`);
    expect(mail!.text).toBe(
      `Hej,\n\nVi har modtaget din betaling på 125,00 DKK for faktura ${invoice.invoice_number}, trukket på dit visa-kort, der slutter på 4242, den 2026-01-15.\n\nTak.\nTest Organization\n`,
    );
    expect(mail!.headers.get('message-id')).toMatch(/^<[0-9a-f-]{36}@example\.invalid>$/);
  }, 120_000);

  it('tells the card-notification recipients of every declined charge and of the end of the retries', async () => {
    const organization = await clockOrganization(platform, START);
    const { api } = organization;
    const fixture = await invoiceFixture(api);
    const account = fixture.account.uuid as string;
    await createRecipient(api, account, {
      email: 'afvist@kunde.example',
      receive_invoice: false,
      receive_payment_card_notifications: true,
    });
    await createRecipient(api, account, {
      email: 'kvittering@kunde.example',
      receive_invoice: false,
      receive_payment_confirmation: true,
    });
    expectStatus(await api.post(CARDS, { account, token: 'noop_declined', gateway: 'noop' }), 201);
    const subscription = await subscribe(api, fixture, { collection_method: 'payment_card' });
    await organization.advance(START);
    const number = (await api.get(`${INVOICES}?subscription_uuid=${subscription.uuid}`)).body.results[0]
      .invoice_number as string;
    const [first] = await waitForMails('afvist@kunde.example', 1);
    expect(first!.subject).toBe(`Payment for invoice ${number} was declined`);
    expect(first!.text).toBe(
      `Hello,\n\nYour visa card ending in 0002 was declined when we charged 125.00 DKK for invoice ${number} on 2026-01-15.\nWe will try again on 2026-01-16.\n\nTest Organization\n`,
    );

    // Days 1, 3 and 7 of the dunning schedule in one advance: three more mails, in order.
    await organization.advance('2026-01-25T12:00:00Z');
    const mails = await waitForMails('afvist@kunde.example', 4);
    const lines = mails.map((mail) => mail.text.split('\n').slice(2, 4));
    expect(lines).toEqual([
      [expect.stringContaining('on 2026-01-15.'), 'We will try again on 2026-01-16.'],
      [expect.stringContaining('on 2026-01-16.'), 'We will try again on 2026-01-18.'],
      [expect.stringContaining('on 2026-01-18.'), 'We will try again on 2026-01-22.'],
      [
        expect.stringContaining('on 2026-01-22.'),
        'We will not try again: please add another card or pay the invoice another way.',
      ],
    ]);
    expect(new Set(mails.map((mail) => mail.headers.get('message-id'))).size).toBe(4);
    expect(mails.every((mail) => mail.to.length === 1)).toBe(true);
    // Nothing more falls due; no mail is sent twice, and no confirmation went out.
    await organization.advance('2026-02-10T12:00:00Z');
    // The mail worker passes every 100 ms: ten passes would have sent anything still waiting.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(mailsTo('afvist@kunde.example')).toHaveLength(4);
    expect(mailsTo('kvittering@kunde.example')).toHaveLength(0);
  }, 120_000);
});
