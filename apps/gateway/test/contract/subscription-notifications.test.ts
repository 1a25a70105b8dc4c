/**
 * Issue 13, subscription notifications, through HTTP on a test clock with a real SMTP server: the
 * recipients with receive_subscription_notifications get one e-mail when a subscription starts,
 * renews soon (7 days before, as renew_subscription_soon), changes, is cancelled or reactivated,
 * in the account's language, saying what changed and from when (docs/api.md "Subscription
 * notifications").
 */
import { waitFor } from '@billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { type CapturedMail, startSmtpCapture } from '../support/smtp-capture.js';
import {
  createAccount,
  createPlan,
  createPlanTerms,
  createRecipient,
  expectStatus,
  newOrganization,
  uniqueCode,
} from './helpers.js';
import { SUBSCRIPTIONS, subscriptionPath } from './subscriptions-helpers.js';

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

const NOTIFIED = ['drift@kunde.example', 'it@kunde.example'];

/** The notification mails so far (those to the notified recipients), once there are `count`. */
const notices = (count: number): Promise<CapturedMail[]> =>
  waitFor(
    () => {
      const found = smtp.mails.filter((mail) => mail.to.includes(NOTIFIED[0]!));
      return found.length >= count ? found : undefined;
    },
    { timeoutMs: 20_000, description: `${count} subscription notices` },
  );

/** The one notice with `subject`, once it has arrived. */
async function notice(count: number, subject: string): Promise<CapturedMail> {
  const found = (await notices(count)).filter((mail) => mail.subject === subject);
  expect(found, `${subject} among ${JSON.stringify(smtp.mails.map((mail) => mail.subject))}`).toHaveLength(1);
  return found[0]!;
}

const body = (...lines: string[]) => `Hej,\n\n${lines.join('\n\n')}\n\nVenlig hilsen\nNordlys ApS\n`;

describe('subscription notifications on the test clock', () => {
  it('mails the start, the renewal 7 days ahead, a change, the cancellation and the reactivation', async () => {
    const { api } = await newOrganization(platform, {
      name: 'Nordlys ApS',
      test_clock_time: '2026-01-15T09:00:00Z',
      default_payment_terms: 14,
    });
    const advance = async (to: string) => expectStatus(await api.post('/api/v1/test-clock/advance/', { to }), 200);
    const account = await createAccount(api, uniqueCode('da'), { company_name: 'Kunde A/S', language: 'da' });
    for (const email of NOTIFIED) {
      await createRecipient(api, account.uuid as string, {
        email,
        receive_invoice: false,
        receive_subscription_notifications: true,
      });
    }
    await createRecipient(api, account.uuid as string, {
      email: 'ap@kunde.example',
      receive_invoice: true,
      receive_subscription_notifications: false,
    });
    const plan = await createPlan(api, uniqueCode('plan'), { name: 'Pro' });
    const terms = await createPlanTerms(api, plan.uuid as string, {
      price: '100.00',
      currency: 'DKK',
      code: 'monthly',
    });

    const created = await api.post(SUBSCRIPTIONS, {
      account: account.code,
      terms: terms.uuid,
      quantity: 2,
      collection_method: 'invoice',
    });
    expectStatus(created, 201);
    const path = subscriptionPath(created.body.uuid as string);
    expect(created.body.next_renewal_date).toBe('2026-02-15T09:00:00.000Z');

    const started = await notice(1, 'Dit abonnement på Pro er startet');
    expect([...started.to].sort()).toEqual(NOTIFIED);
    expect(started.headers.get('from')).toBe('Nordlys ApS <billing@example.invalid>');
    expect(started.text).toBe(
      body(
        'Dit abonnement på Pro startede den 2026-01-15.',
        'Antal: 2\nPris: 200,00 DKK pr. måned\nNæste fornyelse: 2026-02-15',
      ),
    );

    // 8 days before the renewal: nothing; 7 days before: the renewal notice.
    await advance('2026-02-07T09:00:00Z');
    await advance('2026-02-08T09:00:00Z');
    const renews = await notice(2, 'Dit abonnement på Pro fornyes den 2026-02-15');
    expect([...renews.to].sort()).toEqual(NOTIFIED);
    expect(renews.text).toBe(
      body('Dit abonnement på Pro fornyes den 2026-02-15.', 'Antal: 2\nPris: 200,00 DKK pr. måned'),
    );

    // A quantity change at the renewal: what changes, and from when.
    expectStatus(await api.patch(path, { quantity: 5, change_type: 'at_renewal' }), 200);
    const changed = await notice(3, 'Dit abonnement på Pro ændres den 2026-02-15');
    expect(changed.text).toBe(
      body('Dit abonnement på Pro ændres fra den 2026-02-15:', 'Antal: 2 → 5\nPris: 200,00 DKK → 500,00 DKK pr. måned'),
    );

    expectStatus(await api.post(`${path}cancel/`, { cancellation_type: 'at_renewal' }), 200);
    const cancelled = await notice(4, 'Dit abonnement på Pro er opsagt');
    expect(cancelled.text).toBe(body('Dit abonnement på Pro er opsagt. Det ophører den 2026-02-15.'));

    expectStatus(await api.post(`${path}reactivate/`, {}), 200);
    const reactivated = await notice(5, 'Dit abonnement på Pro er genoptaget');
    expect(reactivated.text).toBe(
      body('Dit abonnement på Pro fortsætter fra den 2026-02-08.', 'Næste fornyelse: 2026-02-15'),
    );

    // Once each, and never to the recipient of invoices only: it got the invoice and, the first
    // invoice (due 2026-01-29) being open, its payment reminders of days 3 and 10.
    expect((await notices(5)).map((mail) => mail.subject).sort()).toEqual(
      [
        'Dit abonnement på Pro er genoptaget',
        'Dit abonnement på Pro er opsagt',
        'Dit abonnement på Pro er startet',
        'Dit abonnement på Pro fornyes den 2026-02-15',
        'Dit abonnement på Pro ændres den 2026-02-15',
      ].sort(),
    );
    expect(smtp.mails.filter((mail) => mail.to.includes('ap@kunde.example')).map((mail) => mail.subject)).toEqual([
      'Faktura 1 fra Nordlys ApS',
      'Rykker 1: faktura 1 fra Nordlys ApS',
      'Rykker 2: faktura 1 fra Nordlys ApS',
    ]);
  }, 120_000);
});

describe('subscription notifications in English', () => {
  it('announce a scheduled subscription when it starts, and an immediate change from that day', async () => {
    const { api } = await newOrganization(platform, {
      name: 'Solskin ApS',
      test_clock_time: '2026-01-15T09:00:00Z',
    });
    const advance = async (to: string) => expectStatus(await api.post('/api/v1/test-clock/advance/', { to }), 200);
    const account = await createAccount(api, uniqueCode('en'), { company_name: 'Client Ltd', language: 'en' });
    await createRecipient(api, account.uuid as string, {
      email: 'ops@client.example',
      receive_invoice: false,
      receive_subscription_notifications: true,
    });
    const plan = await createPlan(api, uniqueCode('plan'), { name: 'Team' });
    const terms = await createPlanTerms(api, plan.uuid as string, {
      price: '1000.00',
      currency: 'DKK',
      code: 'yearly',
      interval_type: 'year',
    });
    const mailsTo = (count: number) =>
      waitFor(
        () => {
          const found = smtp.mails.filter((mail) => mail.to.includes('ops@client.example'));
          return found.length >= count ? found : undefined;
        },
        { timeoutMs: 20_000, description: `${count} notices to ops@client.example` },
      );

    const created = await api.post(SUBSCRIPTIONS, {
      account: account.code,
      terms: terms.uuid,
      quantity: 2,
      start_date: '2026-02-01T09:00:00.000Z',
      collection_method: 'invoice',
    });
    expectStatus(created, 201);
    expect(created.body.status).toBe('scheduled');
    // Nothing while it waits; the start's notice when the clock reaches it.
    await advance('2026-01-31T09:00:00Z');
    expect(smtp.mails.filter((mail) => mail.to.includes('ops@client.example'))).toEqual([]);
    await advance('2026-02-01T09:00:00Z');
    const [started] = await mailsTo(1);
    expect(started!.subject).toBe('Your subscription to Team has started');
    expect(started!.text).toBe(
      'Hello,\n\nYour subscription to Team started on 2026-02-01.\n\n' +
        'Quantity: 2\nPrice: 2,000.00 DKK per year\nNext renewal: 2027-02-01\n\nKind regards,\nSolskin ApS\n',
    );

    await advance('2026-02-10T09:00:00Z');
    const path = subscriptionPath(created.body.uuid as string);
    expectStatus(await api.patch(path, { quantity: 3, change_type: 'immediate' }), 200);
    const [, changed] = await mailsTo(2);
    expect(changed!.subject).toBe('Your subscription to Team changes on 2026-02-10');
    expect(changed!.text).toBe(
      'Hello,\n\nYour subscription to Team changes from 2026-02-10:\n\n' +
        'Quantity: 2 → 3\nPrice: 2,000.00 DKK → 3,000.00 DKK per year\n\nKind regards,\nSolskin ApS\n',
    );
  }, 120_000);
});
