/**
 * Invoice e-mails through a real SMTP server (docs/invoicing.md "E-mail and PDF"): the Reply-To
 * is the organization's e-mail, set with the admin command line, so customers' answers reach the
 * organization rather than the platform's sending address; without one there is no Reply-To.
 */
import { waitFor } from '@billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { type CapturedMail, startSmtpCapture } from '../support/smtp-capture.js';
import { createRecipient, expectStatus, newOrganization } from './helpers.js';
import { invoiceFixture, invoicePath, subscribeAndInvoice } from './invoices-helpers.js';

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

describe('invoice e-mail Reply-To', () => {
  it("is the organization's e-mail when it has one, as the organization's e-mail is when the mail is asked for", async () => {
    const { api, organizationId } = await newOrganization(platform, { name: 'Nordlys ApS' });
    await platform.admin('update-org', '--org', organizationId, '--email', 'faktura@nordlys.dk');
    const fixture = await invoiceFixture(api);
    await createRecipient(api, fixture.account.uuid as string, {
      email: 'ap@kunde.example',
      receive_invoice: true,
      receive_subscription_notifications: false,
    });
    const { invoice } = await subscribeAndInvoice(api, fixture, { quantity: 2 });

    const [issued] = await mailsTo('ap@kunde.example', 1);
    expect(issued!.headers.get('reply-to')).toBe('faktura@nordlys.dk');
    expect(issued!.headers.get('from')).toBe('Nordlys ApS <billing@example.invalid>');

    // The organization's e-mail changes: a mail sent again replies to the new one.
    await platform.admin('update-org', '--org', organizationId, '--email', 'bogholderi@nordlys.dk');
    expectStatus(await api.post(`${invoicePath(invoice.uuid)}send/`), 200);
    const [, again] = await mailsTo('ap@kunde.example', 2);
    expect(again!.headers.get('reply-to')).toBe('bogholderi@nordlys.dk');
  }, 120_000);

  it('is left out when the organization has no e-mail', async () => {
    const { api } = await newOrganization(platform);
    const fixture = await invoiceFixture(api);
    await createRecipient(api, fixture.account.uuid as string, {
      email: 'plain@kunde.example',
      receive_invoice: true,
      receive_subscription_notifications: false,
    });
    await subscribeAndInvoice(api, fixture, { quantity: 1 });

    const [mail] = await mailsTo('plain@kunde.example', 1);
    expect(mail!.headers.has('reply-to')).toBe(false);
    expect(mail!.headers.get('from')).toBe('Test Organization <billing@example.invalid>');
  }, 60_000);
});
