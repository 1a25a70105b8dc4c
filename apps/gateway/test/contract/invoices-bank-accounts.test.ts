/**
 * `pay_to_bank_account` (api-spec "Invoice": an integer): the id of the organization's bank account
 * the invoice is paid to, set with the admin command line (add-bank-account): the account for the
 * invoice's currency, else the one for every other currency, else null. An invoice keeps the
 * account it was made with when the organization's accounts change.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import { createAccount, expectStatus, type Json, newOrganization, usePlatform } from './helpers.js';
import { DRAFT_LINES, generateInvoicePath, INVOICES, invoicePath } from './invoices-helpers.js';

const platform = usePlatform();

/** One invoice per currency of the account's draft lines, made by generate_invoice. */
async function invoiceIn(api: ApiClient, code: string, currency: string): Promise<Json> {
  const line = await api.post(DRAFT_LINES, {
    account: code,
    description: 'Consulting',
    vat_type: 'services',
    currency,
    price: '100',
  });
  expectStatus(line, 201);
  const response = await api.post(generateInvoicePath(code));
  expectStatus(response, 200);
  return (response.body as Json[])[0]!;
}

describe('pay_to_bank_account', () => {
  it("names the bank account of the invoice's currency, else the one for every other currency, else null", async () => {
    const { api, organizationId } = await newOrganization(platform());
    const admin = (...args: string[]) => platform().admin(...args) as Promise<{ id: number }>;
    const account = await createAccount(api);

    // No bank account yet: null.
    expect((await invoiceIn(api, account.code, 'DKK')).pay_to_bank_account).toBeNull();

    const dkk = await admin(
      'add-bank-account',
      '--org',
      organizationId,
      '--reg-number',
      '1234',
      '--account-number',
      '1234567890',
      '--currency',
      'DKK',
    );
    const eur = await admin(
      'add-bank-account',
      '--org',
      organizationId,
      '--iban',
      'DK50 0040 0440 1162 43',
      '--bic',
      'DABADKKK',
      '--currency',
      'EUR',
    );
    const dkkInvoice = await invoiceIn(api, account.code, 'DKK');
    expect(dkkInvoice.pay_to_bank_account).toBe(dkk.id);
    expect((await invoiceIn(api, account.code, 'EUR')).pay_to_bank_account).toBe(eur.id);
    // No account for SEK and none for every other currency.
    expect((await invoiceIn(api, account.code, 'SEK')).pay_to_bank_account).toBeNull();

    const rest = await admin(
      'add-bank-account',
      '--org',
      organizationId,
      '--reg-number',
      '5301',
      '--account-number',
      '42',
    );
    expect((await invoiceIn(api, account.code, 'SEK')).pay_to_bank_account).toBe(rest.id);

    // The DKK account removed: new DKK invoices go to the one for every currency; the invoice made
    // before keeps its account, in the list and the detail view.
    await admin('remove-bank-account', '--org', organizationId, '--bank-account', String(dkk.id));
    expect((await invoiceIn(api, account.code, 'DKK')).pay_to_bank_account).toBe(rest.id);
    const detail = await api.get(invoicePath(dkkInvoice.uuid as string));
    expect(detail.body.pay_to_bank_account).toBe(dkk.id);
    const listed = await api.get(`${INVOICES}?uuid=${dkkInvoice.uuid}`);
    expect(listed.body.results[0].pay_to_bank_account).toBe(dkk.id);

    // Another organization's invoices never name this organization's accounts.
    const other = await newOrganization(platform());
    const otherAccount = await createAccount(other.api);
    expect((await invoiceIn(other.api, otherAccount.code, 'DKK')).pay_to_bank_account).toBeNull();
  }, 120_000);
});
