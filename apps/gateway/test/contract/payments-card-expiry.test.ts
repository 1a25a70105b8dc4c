/**
 * card_expires_this_month (gaps.md §11, docs/api.md "Card expiry notices") through HTTP on a test
 * clock: on the first day of the card's expiry month on the organization's wall clock (Copenhagen:
 * 23:00 UTC the day before), once per card: the event, the opt-in webhook with the card as its GET
 * shows it, and the mail to the recipients with receive_payment_card_notifications. The noop test
 * cards expire 12/2030; a disabled card and a card registered during its expiry month are not told of.
 */
import { waitFor } from '@billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { type CapturedMail, startSmtpCapture } from '../support/smtp-capture.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { createAccount, createRecipient, expectStatus } from './helpers.js';
import { clockOrganization } from './subscriptions-helpers.js';
import { createWebhook } from './webhooks-helpers.js';

const CARDS = '/api/v1/paymentcards/';

let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let receiver: WebhookReceiver;
let platform: TestPlatform;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  receiver = await startWebhookReceiver();
  platform = await startTestPlatform({ smtpUrl: smtp.url });
});

afterAll(async () => {
  await platform?.stop();
  await receiver?.close();
  await smtp?.stop();
});

const mailsTo = (address: string): CapturedMail[] => smtp.mails.filter((mail) => mail.to.includes(address));

describe('card_expires_this_month', () => {
  it('tells of each active card once, on the first day of its expiry month on the organization clock', async () => {
    const organization = await clockOrganization(platform, '2030-11-20T09:00:00Z');
    const { api, organizationId } = organization;
    const path = '/card-expiry';
    const webhook = await createWebhook(api, {
      endpoint: receiver.url(path),
      events: ['card_expires_this_month'],
    });
    expect(webhook.events).toEqual(['card_expires_this_month']);
    const account = await createAccount(api, 'expiring', { company_name: 'Kunde A/S', language: 'da' });
    await createRecipient(api, account.uuid, {
      email: 'kort@kunde.example',
      receive_invoice: false,
      receive_payment_card_notifications: true,
    });
    await createRecipient(api, account.uuid, {
      email: 'kvittering@kunde.example',
      receive_invoice: false,
      receive_payment_confirmation: true,
    });
    const visa = await api.post(CARDS, { account: account.uuid, token: 'noop_visa', gateway: 'noop' });
    expectStatus(visa, 201);
    const disabled = await api.post(CARDS, { account: account.uuid, token: 'noop_mastercard', gateway: 'noop' });
    expectStatus(disabled, 201);
    expectStatus(await api.post(`${CARDS}${disabled.body.uuid}/disable/`, {}), 200);

    // 23:59 on 30 November in Copenhagen: not yet.
    await organization.advance('2030-11-30T22:59:59Z');
    const notices = async () =>
      (await platform.paymentEvents(organizationId)).filter(
        (event) => event.event_type === 'payment_card.expires_this_month',
      );
    expect(await notices()).toEqual([]);

    // Midnight on 1 December in Copenhagen.
    await organization.advance('2030-11-30T23:00:00Z');
    expect(
      (await notices()).map((event) => [event.aggregate_id, event.occurred_at, event.card?.month, event.card?.year]),
    ).toEqual([[visa.body.uuid, '2030-11-30T23:00:00.000Z', 12, 2030]]);

    const [delivery] = await waitFor(() => (receiver.at(path).length > 0 ? receiver.at(path) : undefined), {
      timeoutMs: 20_000,
      description: 'the card_expires_this_month webhook',
    });
    expect(JSON.parse(delivery!.body)).toEqual({
      event: 'card_expires_this_month',
      data: (await api.get(`${CARDS}${visa.body.uuid}/`)).body,
    });

    const [mail] = await waitFor(
      () => (mailsTo('kort@kunde.example').length > 0 ? mailsTo('kort@kunde.example') : undefined),
      { timeoutMs: 20_000, description: 'the card expiry mail' },
    );
    expect(mail!.to).toEqual(['kort@kunde.example']);
    expect(mail!.subject).toBe('Dit kort, der slutter på 4242, udløber denne måned');
    expect(mail!.text).toBe(
      'Hej,\n\nDit visa-kort, der slutter på 4242, som betaler fakturaerne fra Test Organization, udløber ved udgangen af denne måned (12/2030). Tilføj venligst et nyt kort inden da, så dine betalinger fortsætter.\n\nTest Organization\n',
    );

    // A card registered during its expiry month was never at its first day: it is not told of.
    // Later advances tell of nothing again.
    await organization.advance('2030-12-02T12:00:00Z');
    const late = await api.post(CARDS, { account: account.uuid, token: 'noop_declined', gateway: 'noop' });
    expectStatus(late, 201);
    await organization.advance('2030-12-15T12:00:00Z');
    await organization.advance('2031-02-01T12:00:00Z');
    expect((await notices()).map((event) => event.aggregate_id)).toEqual([visa.body.uuid]);
    // The webhook and mail workers pass every 100 ms: ten passes would have sent anything waiting.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.at(path)).toHaveLength(1);
    expect(mailsTo('kort@kunde.example')).toHaveLength(1);
    expect(mailsTo('kvittering@kunde.example')).toHaveLength(0);
  }, 120_000);
});
