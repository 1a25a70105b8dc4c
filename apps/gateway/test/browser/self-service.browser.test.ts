/**
 * The customer's self-service page in a real browser (Debian's Chromium driven by playwright-core)
 * against the real platform: open the sign-in link from initiate-organization/ and click "Sign
 * in", download an invoice's PDF, disable a card, add a card through the noop gateway's
 * card-entry page, sign out; and the same page in Danish for a Danish account, signing out too.
 */
import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, gatewaysPath, newOrganization, usePlatform } from '../contract/helpers.js';
import { invoicePath } from '../contract/invoices-helpers.js';
import { customerFixture, selfServiceLink } from '../contract/self-service-helpers.js';
import { launchChromium } from '../support/chromium.js';

const platform = usePlatform();
const CARDS = '/api/v1/paymentcards/';
let browser: { context: BrowserContext; close(): Promise<void> };

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

/** The text of each body row of the table with `id`, cell by cell, as the page shows it. */
async function rows(page: Page, id: string): Promise<string[][]> {
  return page
    .locator(`table#${id} tbody tr`)
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').replace(/\s+/g, ' ').trim())),
    );
}

/** A fresh page that records every dialog (none may open: the pages run no script). */
async function newPage(): Promise<{ page: Page; dialogs: string[] }> {
  const page = await browser.context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  return { page, dialogs };
}

describe('the self-service page in Chromium', () => {
  it('signs in from the link, downloads an invoice PDF, disables a card, adds a card and signs out', async () => {
    const { api } = await newOrganization(platform());
    const customer = await customerFixture(api, 'ada@example.com', { company_name: 'Acme <b>ApS</b>' });
    expectStatus(
      await api.post(gatewaysPath(customer.code), [{ payment_gateway: 'noop', payment_gateway_account_id: 'acme' }]),
      200,
    );
    const visa = await api.post(CARDS, { account: customer.account.uuid, token: 'noop_visa', gateway: 'noop' });
    expectStatus(visa, 201);
    const link = await selfServiceLink(api, 'ada@example.com');
    const base = platform().baseUrl;
    const accountUrl = `${base}/self-service/accounts/${customer.account.uuid}/`;
    const { page, dialogs } = await newPage();

    // The link: a page with a button; clicking it signs in and lands on the account's page.
    await page.goto(link);
    expect(await page.locator('h1').innerText()).toBe('Sign in');
    await Promise.all([page.waitForURL(accountUrl), page.click('button:has-text("Sign in")')]);
    expect(await page.locator('h1').innerText()).toBe('Acme <b>ApS</b>');
    expect(await page.locator('h1 b').count()).toBe(0);
    const { invoice } = customer;
    expect(await rows(page, 'invoices')).toEqual([
      [String(invoice.invoice_number), invoice.date, invoice.due_date, '125.00 DKK', 'Open', 'Download PDF'],
    ]);
    expect((await rows(page, 'subscriptions'))[0]!.slice(0, 4)).toEqual(['Pro', '1', '100.00 DKK', 'Active']);
    expect(await rows(page, 'cards')).toEqual([['visa **** **** **** 4242', '12/2030', 'Active', 'Disable']]);

    // The invoice's PDF downloads: the same document the API serves.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('text=Download PDF')]);
    expect(download.suggestedFilename()).toBe(`invoice-${invoice.invoice_number}.pdf`);
    const downloaded = await readFile((await download.path())!);
    expect(downloaded.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(downloaded.toString('base64')).toBe((await api.get(invoicePath(invoice.uuid))).body.pdf_base64);

    // Disable the card.
    await Promise.all([
      page.waitForURL(`${accountUrl}?notice=card_disabled`),
      page.click('table#cards button:has-text("Disable")'),
    ]);
    expect(await page.locator('p.notice').innerText()).toBe('The card is disabled.');
    expect(await rows(page, 'cards')).toEqual([['visa **** **** **** 4242', '12/2030', 'Disabled', '']]);
    expect((await api.get(`${CARDS}${visa.body.uuid}/`)).body.active).toBe(false);

    // Add a card: the noop gateway's card-entry page, then back here. (A second later than the
    // first card: the list is newest first and the platform's clock stands still.)
    platform().clock.advanceMs(1_000);
    await Promise.all([page.waitForURL(/\/payments\/noop\/[0-9a-f-]{36}\/$/), page.click('text=Add a card')]);
    await page.check('input[value="noop_mastercard"]');
    await Promise.all([page.waitForURL(`${accountUrl}?notice=card_added`), page.click('text=Register card')]);
    expect(await page.locator('p.notice').innerText()).toBe('Your card is registered.');
    expect(await rows(page, 'cards')).toEqual([
      ['mastercard **** **** **** 4444', '12/2030', 'Active', 'Disable'],
      ['visa **** **** **** 4242', '12/2030', 'Disabled', ''],
    ]);
    const active = await api.get(`${CARDS}?account=${customer.account.uuid}&active=true`);
    expect(active.body.results.map((card: { payment_gateway_id: string }) => card.payment_gateway_id)).toEqual([
      'noop_mastercard',
    ]);

    // Sign out: the page is closed to this browser until a new link.
    await page.click('button:has-text("Sign out")');
    await page.waitForSelector('text=You are signed out.');
    const after = await page.goto(accountUrl);
    expect(after?.status()).toBe(401);
    expect(await page.locator('main p.message').innerText()).toBe('You are not signed in, or your session has ended.');
    // The used link does not sign in again.
    const used = await page.goto(link);
    expect(used?.status()).toBe(410);
    expect(dialogs).toEqual([]);
    await page.close();
  });

  it('shows a Danish account its page in Danish', async () => {
    const { api } = await newOrganization(platform());
    const customer = await customerFixture(api, 'mette@example.dk', { language: 'da', company_name: 'Dansk ApS' });
    const { page } = await newPage();
    await page.goto(await selfServiceLink(api, 'mette@example.dk'));
    expect(await page.locator('html').getAttribute('lang')).toBe('da');
    await Promise.all([
      page.waitForURL(`${platform().baseUrl}/self-service/accounts/${customer.account.uuid}/`),
      page.click('button:has-text("Log ind")'),
    ]);
    expect(await page.locator('h2').allInnerTexts()).toEqual(['Fakturaer', 'Abonnementer', 'Betalingskort']);
    expect((await rows(page, 'invoices'))[0]!.slice(4)).toEqual(['Åben', 'Hent PDF']);
    await page.click('button:has-text("Log ud")');
    await page.waitForSelector('text=Du er logget ud.');
    expect(await page.locator('html').getAttribute('lang')).toBe('da');
    await page.close();
  });
});
