/**
 * The browsable read view and the API console in a real browser (Debian's Chromium driven by
 * playwright-core), against the real platform: sign in with a token, follow a link to a detail,
 * page through a list, submit the filter form, sign out; the console keeps its authorization
 * across a reload and lists each hyphen/underscore twin once.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, newOrganization, usePlatform } from '../contract/helpers.js';
import { launchChromium } from '../support/chromium.js';
import type { TestOrganization } from '../support/platform.js';

const platform = usePlatform();
let browser: { context: BrowserContext; close(): Promise<void> };
let organization: TestOrganization;
/** Markup in a field: shown as text, never run (a dialog would open if it ran). */
const HOSTILE = '<b>ApS</b><img src=x onerror=alert(1)><script>alert(2)</script>';

beforeAll(async () => {
  browser = await launchChromium();
  organization = await newOrganization(platform());
  for (const [code, country] of [
    ['alpha', 'DK'],
    ['bravo', 'SE'],
    ['charlie', 'DK'],
  ] as const) {
    platform().clock.advanceMs(1_000);
    await createAccount(organization.api, code, { legal_country: country, company_name: `${code} ${HOSTILE}` });
  }
});

afterAll(async () => {
  await browser?.close();
});

/** The JSON the page shows, read as a person reads it (the page's text). */
async function shownJson(page: Page): Promise<Record<string, unknown>> {
  const text = await page.locator('pre.response').innerText();
  return JSON.parse(text.split('\n\n').slice(1).join('\n\n'));
}

describe('the browsable view', () => {
  it('signs in, follows a link to a detail, pages through a list, filters and signs out', async () => {
    const page = await browser.context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', async (dialog) => {
      dialogs.push(dialog.message());
      await dialog.dismiss();
    });
    const base = platform().baseUrl;

    // Not signed in: the list is the 401 page, with the sign-in form.
    const first = await page.goto(`${base}/api/v1/accounts/?page_size=2`);
    expect(first?.status()).toBe(401);
    expect(await shownJson(page)).toEqual({ detail: 'Invalid token.' });

    await page.fill('#token', organization.token);
    await Promise.all([page.waitForURL(`${base}/api/v1/accounts/?page_size=2`), page.click('text=Sign in')]);
    expect(await page.locator('header').innerText()).toContain('Signed in (read only)');
    const list = await shownJson(page);
    expect(list).toMatchObject({ count: 3, previous: null, next: `${base}/api/v1/accounts/?page=2&page_size=2` });
    expect((list.results as Array<{ code: string }>).map((account) => account.code)).toEqual(['alpha', 'bravo']);
    // The company name is text on the page, never markup.
    expect(await page.locator('pre.response b').count()).toBe(1);
    expect(await page.locator('img, script').count()).toBe(0);
    expect(await page.locator('pre.response').innerText()).toContain(`"company_name": "alpha ${HOSTILE}"`);

    // Page through the list.
    await Promise.all([
      page.waitForURL(`${base}/api/v1/accounts/?page=2&page_size=2`),
      page.click('nav.pages >> text=Next page »'),
    ]);
    expect(((await shownJson(page)).results as Array<{ code: string }>).map((account) => account.code)).toEqual([
      'charlie',
    ]);
    await Promise.all([
      page.waitForURL(`${base}/api/v1/accounts/?page_size=2`),
      page.click('nav.pages >> text=« Previous page'),
    ]);

    // Follow a link to a detail.
    await Promise.all([
      page.waitForURL(`${base}/api/v1/accounts/bravo/`),
      page.click('a[href="/api/v1/accounts/bravo/"]'),
    ]);
    expect(await shownJson(page)).toMatchObject({ code: 'bravo', legal_country: 'SE', model: 'account' });
    expect(await page.title()).toBe('One account – Billing API');

    // Submit the filter form.
    await page.goto(`${base}/api/v1/accounts/`);
    await page.selectOption('#filter-legal_country', 'DK');
    await page.selectOption('#filter-ordering', '-code');
    await Promise.all([page.waitForURL(/legal_country=DK/), page.click('form.filters button[type=submit]')]);
    expect(new URL(page.url()).searchParams.get('ordering')).toBe('-code');
    const filtered = await shownJson(page);
    expect(filtered.count).toBe(2);
    expect((filtered.results as Array<{ code: string }>).map((account) => account.code)).toEqual(['charlie', 'alpha']);
    expect(await page.locator('#filter-legal_country').inputValue()).toBe('DK');

    // The browser holds the token only in an HttpOnly, SameSite=Strict cookie scripts cannot read.
    const [cookie] = await browser.context.cookies(base);
    expect(cookie).toMatchObject({ name: 'billing_browsable_token', httpOnly: true, sameSite: 'Strict', expires: -1 });
    expect(await page.evaluate('document.cookie')).toBe('');

    // Sign out: back on the same page, now refused.
    const url = page.url();
    await Promise.all([page.waitForURL(url), page.click('text=Sign out')]);
    expect(await shownJson(page)).toEqual({ detail: 'Invalid token.' });
    expect(await browser.context.cookies(base)).toEqual([]);
    expect(dialogs).toEqual([]);
    await page.close();
  });

  it('shows the API root at /, signs in there and follows its links', async () => {
    const page = await browser.context.newPage();
    const base = platform().baseUrl;
    await page.goto(`${base}/`);
    expect(await shownJson(page)).toMatchObject({ accounts: `${base}/api/v1/accounts/` });
    await page.fill('#token', organization.token);
    await Promise.all([page.waitForURL(`${base}/`), page.click('text=Sign in')]);
    await Promise.all([page.waitForURL(`${base}/api/v1/accounts/`), page.click(`a[href="${base}/api/v1/accounts/"]`)]);
    expect((await shownJson(page)).count).toBe(3);
    await page.close();
  });
});

describe('the API console', () => {
  it('keeps the authorization across a reload and lists each twin once', async () => {
    const page = await browser.context.newPage();
    const base = platform().baseUrl;
    await page.goto(`${base}/api/docs/`);
    await page.waitForSelector('.opblock');

    expect(await page.locator('[data-path="/api/v1/churn-reasons/"]').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-path="/api/v1/churn_reasons/"]').count()).toBe(0);

    await page.click('button.authorize');
    const dialog = page.locator('.modal-ux');
    for (const [scheme, value] of [
      ['TokenAuth', organization.token],
      ['ClientSystem', 'console'],
    ]) {
      const box = dialog.locator('.auth-container', { hasText: scheme });
      await box.locator('input').fill(value!);
      await box.locator('button.authorize').click();
    }
    await dialog.locator('button.btn-done').first().click();

    await page.reload();
    await page.waitForSelector('.opblock');
    expect(await page.locator('.auth-wrapper button.authorize.locked').count()).toBe(1);

    // A request from the console after the reload carries the kept token and client system.
    const operation = page.locator('#operations-accounts-listAccounts');
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.try-out__btn').click();
    const [response] = await Promise.all([
      page.waitForResponse((candidate) => candidate.url().startsWith(`${base}/api/v1/accounts/`)),
      operation.locator('button.execute').click(),
    ]);
    expect(response.status()).toBe(200);
    expect(await response.request().headerValue('authorization')).toBe(`Token ${organization.token}`);
    expect(await response.request().headerValue('x-client-system')).toBe('console');
    await page.close();
  }, 120_000);
});
