/**
 * The account list filters served by accounts' billing read models (gaps.md §3: `balance`,
 * `active_payment_method`, `registered_for_direct_debit`, `register_status`), the subscription
 * list's `account_active_payment_method`, and the delete rule "refused while the account has
 * invoices", over HTTP. The invoices are made the way integrators make them (draft lines and
 * generate_invoice, register-payment, credit, apply-credit-note); invoicing hands its invoice
 * events to accounts right after each commit, so nothing here waits between a write and the read
 * that must show it.
 */
import { money } from '@billing/money';
import { waitFor } from '@billing/testing';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import {
  ACCOUNTS,
  accountPath,
  createAccount,
  createPlan,
  createPlanTerms,
  expectStatus,
  type Json,
  listCodes,
  newOrganization,
  usePlatform,
} from './helpers.js';
import {
  actionPath,
  DRAFT_LINES,
  generateInvoicePath,
  INVOICES,
  type Invoice,
  invoicePath,
} from './invoices-helpers.js';
import { createSubscription, SUBSCRIPTIONS } from './subscriptions-helpers.js';

const platform = usePlatform();

/** One draft line (services, DK VAT 25%) of `price` in `currency`, then generate_invoice: the invoices made. */
async function invoiceNow(api: ApiClient, code: string, price: string, currency = 'DKK'): Promise<Invoice[]> {
  expectStatus(
    await api.post(DRAFT_LINES, { account: code, description: 'Consulting', vat_type: 'services', currency, price }),
    201,
  );
  const response = await api.post(generateInvoicePath(code), {});
  expectStatus(response, 200);
  return response.body as Invoice[];
}

async function invoiceOf(api: ApiClient, code: string, price: string, currency = 'DKK'): Promise<Invoice> {
  const [invoice] = await invoiceNow(api, code, price, currency);
  return invoice!;
}

/** What the invoice list says an account owes: the sum of its documents' balances (exact). */
async function balanceFromInvoiceList(api: ApiClient, code: string): Promise<string> {
  const response = await api.get(`${INVOICES}?account=${code}&page_size=100`);
  expectStatus(response, 200);
  // The list view's balance is a JSON number; its text is the exact decimal (docs/api.md "Invoices").
  const balances = (response.body.results as Json[]).map((invoice) => money(String(invoice.balance)));
  return balances.reduce((sum, balance) => sum.plus(balance), money('0')).toFixed(2);
}

const HAS_INVOICES = { detail: 'An account with invoices cannot be deleted.' };

describe('DELETE /accounts/{code}/ of an account with invoices', () => {
  it('is refused right after generate_invoice, and the invoice keeps its account', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'invoiced', { company_name: 'Invoiced ApS' });
    const invoice = await invoiceOf(api, 'invoiced', '80');

    const refused = await api.delete(accountPath('invoiced'));

    expectStatus(refused, 400);
    expect(refused.body).toEqual(HAS_INVOICES);
    expectStatus(await api.get(accountPath('invoiced')), 200);
    const read = await api.get(invoicePath(invoice.uuid));
    expect(read.body.account).toMatchObject({ code: 'invoiced', company_name: 'Invoiced ApS' });
  });

  it('is refused while the invoices are settled too (paid, or credited with their credit note)', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'paid-up');
    await createAccount(api, 'credited');
    const paid = await invoiceOf(api, 'paid-up', '80');
    expectStatus(await api.post(actionPath(paid.uuid, 'register-payment'), { registration_date: '2026-01-20' }), 200);
    const credited = await invoiceOf(api, 'credited', '80');
    expectStatus(await api.post(actionPath(credited.uuid, 'credit'), {}), 200);

    for (const code of ['paid-up', 'credited']) {
      const refused = await api.delete(accountPath(code));
      expectStatus(refused, 400);
      expect(refused.body).toEqual(HAS_INVOICES);
    }
  });

  it('deletes an account whose draft lines were never invoiced (no invoice, no subscription)', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'drafts-only');
    expectStatus(
      await api.post(DRAFT_LINES, { account: 'drafts-only', description: 'Setup', vat_type: 'services', price: '10' }),
      201,
    );

    expect((await api.delete(accountPath('drafts-only'))).status).toBe(204);
    expectStatus(await api.get(accountPath('drafts-only')), 404);
  });

  it('racing generate_invoice: either the account is deleted and nothing is invoiced, or the delete is refused', async () => {
    const { api } = await newOrganization(platform());
    const codes = ['race-1', 'race-2', 'race-3', 'race-4', 'race-5', 'race-6'];
    for (const code of codes) {
      await createAccount(api, code);
      expectStatus(
        await api.post(DRAFT_LINES, { account: code, description: 'Setup', vat_type: 'services', price: '10' }),
        201,
      );
    }

    const outcomes = await Promise.all(
      codes.map(async (code) => {
        const [generated, deleted] = await Promise.all([
          api.post(generateInvoicePath(code), {}),
          api.delete(accountPath(code)),
        ]);
        return { code, generated, deleted };
      }),
    );

    for (const { code, generated, deleted } of outcomes) {
      const invoices = (await api.get(`${INVOICES}?search=${code}`)).body.results as Invoice[];
      if (deleted.status === 204) {
        // Deleted first: generate_invoice found no account (404) and no invoice names it.
        expect({ code, generated: generated.status, invoices }).toEqual({ code, generated: 404, invoices: [] });
      } else {
        expect({ code, deleted: deleted.status, body: deleted.body }).toEqual({
          code,
          deleted: 400,
          body: HAS_INVOICES,
        });
        expect({ code, generated: generated.status }).toEqual({ code, generated: 200 });
        expectStatus(await api.get(accountPath(code)), 200);
      }
    }
  });
});

/**
 * A connection of the test's own to invoicing's schema: it holds the organization's invoice number
 * counter, so an issuing transaction stops right before its commit, after it announced its invoice.
 */
async function holdInvoiceNumbers(organizationId: string) {
  const { databaseUrl, schema } = platform().invoicingDatabase;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`set search_path to "${schema}"`);
  await client.query('begin');
  await client.query('select * from invoice_number_counter where organization_id = $1 for update', [organizationId]);
  const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
  /** The backend waiting for a lock `holder` holds (and, if given, of that kind), once there is one. */
  const waitingFor = (holder: number, waitEvent?: string) =>
    waitFor(
      async () => {
        // Inside a transaction the activity view is a snapshot taken once: take a fresh one each time.
        await client.query('select pg_stat_clear_snapshot()');
        const { rows } = await client.query<{ pid: number }>(
          `select pid from pg_stat_activity
            where $1 = any(pg_blocking_pids(pid)) and ($2::text is null or wait_event = $2)`,
          [holder, waitEvent ?? null],
        );
        return rows[0]?.pid;
      },
      { timeoutMs: 10_000, description: `a backend waiting for ${waitEvent ?? 'a lock'} held by ${holder}` },
    );
  return {
    /** The issuing transaction, stopped at the counter. */
    issuer: () => waitingFor(pid),
    /** Whoever waits for the issuer's invoice uuid lock (ConfirmInvoices). */
    confirmer: (issuer: number) => waitingFor(issuer, 'advisory'),
    async cancel(backend: number) {
      await client.query('select pg_cancel_backend($1)', [backend]);
    },
    async release() {
      await client.query('commit');
      await client.end();
    },
  };
}

describe('DELETE while generate_invoice is committing the account’s first invoice', () => {
  it('waits for the commit, then refuses', async () => {
    const { api, organizationId } = await newOrganization(platform());
    await createAccount(api, 'numbers-exist');
    await invoiceOf(api, 'numbers-exist', '10');
    await createAccount(api, 'in-flight');
    expectStatus(
      await api.post(DRAFT_LINES, { account: 'in-flight', description: 'Setup', vat_type: 'services', price: '10' }),
      201,
    );
    const hold = await holdInvoiceNumbers(organizationId);
    try {
      const generating = api.post(generateInvoicePath('in-flight'), {});
      const issuer = await hold.issuer();
      const deleting = api.delete(accountPath('in-flight'));
      // The delete found the announced invoice and invoicing is waiting for the issuer to end.
      await hold.confirmer(issuer);
      await hold.release();

      const [generated, deleted] = await Promise.all([generating, deleting]);
      expectStatus(generated, 200);
      expectStatus(deleted, 400);
      expect(deleted.body).toEqual(HAS_INVOICES);
      const invoice = (generated.body as Invoice[])[0]!;
      expect((await api.get(invoicePath(invoice.uuid))).body.account).toMatchObject({ code: 'in-flight' });
    } finally {
      await hold.release().catch(() => undefined);
    }
  });

  it('waits for the issuing transaction to fail, then deletes', async () => {
    const { api, organizationId } = await newOrganization(platform());
    await createAccount(api, 'numbers-exist');
    await invoiceOf(api, 'numbers-exist', '10');
    await createAccount(api, 'rolled-back');
    expectStatus(
      await api.post(DRAFT_LINES, { account: 'rolled-back', description: 'Setup', vat_type: 'services', price: '10' }),
      201,
    );
    const hold = await holdInvoiceNumbers(organizationId);
    try {
      const generating = api.post(generateInvoicePath('rolled-back'), {});
      const issuer = await hold.issuer();
      const deleting = api.delete(accountPath('rolled-back'));
      await hold.confirmer(issuer);
      // The issuing transaction fails (its statement is cancelled) and rolls back.
      await hold.cancel(issuer);
      await hold.release();

      const [generated, deleted] = await Promise.all([generating, deleting]);
      expect(generated.status).toBe(500);
      expect(deleted.status).toBe(204);
      expectStatus(await api.get(accountPath('rolled-back')), 404);
      expect((await api.get(`${INVOICES}?search=rolled-back`)).body.results).toEqual([]);
    } finally {
      await hold.release().catch(() => undefined);
    }
  });
});

describe('balance: the sum of the account’s open invoice balances', () => {
  it('matches exact decimals, counts credit notes’ unused credit, and agrees with the invoice list', async () => {
    const { api } = await newOrganization(platform());
    for (const code of ['a-owes', 'b-paid', 'c-credited', 'd-credit-note', 'e-no-invoices', 'f-euro']) {
      await createAccount(api, code);
    }
    // a: two open invoices, 100.00 and 37.49 (29.99 + 25% VAT = 37.4875, rounded per line).
    await invoiceOf(api, 'a-owes', '80');
    await invoiceOf(api, 'a-owes', '29.99');
    // b: paid in full.
    const paid = await invoiceOf(api, 'b-paid', '80');
    expectStatus(await api.post(actionPath(paid.uuid, 'register-payment'), { registration_date: '2026-01-20' }), 200);
    // c: credited in full (the invoice and its credit note both end credited, balance 0).
    const credited = await invoiceOf(api, 'c-credited', '80');
    expectStatus(await api.post(actionPath(credited.uuid, 'credit'), {}), 200);
    // d: an open invoice of 100.00 and a credit note of -25.00, 10.00 of which is then applied: 75.00 either way.
    const owed = await invoiceOf(api, 'd-credit-note', '80');
    const note = await invoiceOf(api, 'd-credit-note', '-20');
    expect([note.is_credit_note, note.balance]).toEqual([true, '-25.00']);
    const applied = await api.post(actionPath(note.uuid, 'apply-credit-note'), {
      target_invoice: owed.uuid,
      amount: '10.00',
    });
    expectStatus(applied, 200);
    expect(applied.body.balance).toBe('-15.00');
    // f: 99.99 EUR + 25% = 124.99 EUR.
    await invoiceOf(api, 'f-euro', '99.99', 'EUR');

    const cases: Array<[string, string[]]> = [
      ['balance=0', ['b-paid', 'c-credited', 'e-no-invoices']],
      ['balance=0.00', ['b-paid', 'c-credited', 'e-no-invoices']],
      ['balance=137.49', ['a-owes']],
      ['balance=137.490', ['a-owes']],
      ['balance=137.5', []],
      ['balance=100', []],
      ['balance=75', ['d-credit-note']],
      ['balance=75.00', ['d-credit-note']],
      ['balance=-15', []],
      ['balance=124.99', ['f-euro']],
      ['balance=0&search=paid', ['b-paid']],
    ];
    for (const [query, expected] of cases) {
      expect({ query, codes: await listCodes(api, `${query}&ordering=code`) }).toEqual({ query, codes: expected });
    }
    for (const [code, balance] of [
      ['a-owes', '137.49'],
      ['b-paid', '0.00'],
      ['c-credited', '0.00'],
      ['d-credit-note', '75.00'],
      ['f-euro', '124.99'],
    ] as const) {
      expect({ code, balance: await balanceFromInvoiceList(api, code) }).toEqual({ code, balance });
      expect(await listCodes(api, `balance=${balance}&search=${code}`)).toEqual([code]);
    }
  });

  it('counts renewal invoices (grouped, issued by the test clock) as soon as the advance answers', async () => {
    const { api } = await newOrganization(platform(), { test_clock_time: '2026-01-15T09:00:00.000Z' });
    const advance = async (to: string) => expectStatus(await api.post('/api/v1/test-clock/advance/', { to }), 200);
    const plan = await createPlan(api);
    const terms = await createPlanTerms(api, plan.uuid);
    await createAccount(api, 'renewing');
    await createAccount(api, 'idle');
    for (let subscription = 0; subscription < 2; subscription += 1) {
      await createSubscription(api, { code: 'renewing', terms }, { group_on_invoice: true, po_number: 'PO-1' });
    }

    await advance('2026-01-15T09:00:00.000Z');
    // One grouped invoice: 2 × 100.00 + 25 % VAT.
    expect(await listCodes(api, 'balance=250.00')).toEqual(['renewing']);
    expect(await listCodes(api, 'balance=0')).toEqual(['idle']);
    await advance('2026-02-15T09:00:00.000Z');
    expect(await listCodes(api, 'balance=500')).toEqual(['renewing']);
    expect(await balanceFromInvoiceList(api, 'renewing')).toBe('500.00');
    const refused = await api.delete(accountPath('renewing'));
    expectStatus(refused, 400);
    expect(refused.body).toEqual(HAS_INVOICES);
  });

  it('is one sum per currency: an account matches the balance it has in one of its currencies', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'two-currencies');
    await invoiceOf(api, 'two-currencies', '80');
    await invoiceOf(api, 'two-currencies', '8', 'EUR');

    expect(await listCodes(api, 'balance=100')).toEqual(['two-currencies']);
    expect(await listCodes(api, 'balance=10')).toEqual(['two-currencies']);
    expect(await listCodes(api, 'balance=110')).toEqual([]);
    expect(await listCodes(api, 'balance=0')).toEqual([]);
  });
});

describe('payment method filters and register_status', () => {
  it('every account pays by invoice until cards and direct debit exist; register_status is null', async () => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'p-1');
    await createAccount(api, 'p-2');
    await invoiceOf(api, 'p-2', '80');
    const all = ['p-1', 'p-2'];

    const cases: Array<[string, string[]]> = [
      ['active_payment_method=invoice', all],
      ['active_payment_method=payment_card', []],
      ['active_payment_method=direct_debit', []],
      ['registered_for_direct_debit=false', all],
      ['registered_for_direct_debit=False', all],
      ['registered_for_direct_debit=true', []],
      ['register_status=active', []],
      ['register_status=null', all],
      ['active_payment_method=invoice&balance=100.00', ['p-2']],
      ['registered_for_direct_debit=false&balance=0', ['p-1']],
    ];
    for (const [query, expected] of cases) {
      expect({ query, codes: await listCodes(api, `${query}&ordering=code`) }).toEqual({ query, codes: expected });
    }
  });

  it('refuses values outside the filters’ sets in django-filter wording', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.get(
      `${ACCOUNTS}?balance=lots&active_payment_method=cash&registered_for_direct_debit=perhaps`,
    );

    expectStatus(response, 400);
    expect(response.body).toEqual({
      balance: ['Enter a number.'],
      active_payment_method: ['Select a valid choice. cash is not one of the available choices.'],
      registered_for_direct_debit: ['Select a valid choice. perhaps is not one of the available choices.'],
    });
  });

  it('account_active_payment_method on the subscription list matches the account’s active payment method', async () => {
    const { api } = await newOrganization(platform());
    const plan = await createPlan(api);
    const terms = await createPlanTerms(api, plan.uuid);
    await createAccount(api, 's-1');
    await createAccount(api, 's-2');
    const first = await createSubscription(api, { code: 's-1', terms });
    const second = await createSubscription(api, { code: 's-2', terms }, { collection_method: 'payment_card' });
    const listUuids = async (query: string) => {
      const response = await api.get(`${SUBSCRIPTIONS}?${query}`);
      expectStatus(response, 200);
      return (response.body.results as Json[]).map((subscription) => String(subscription.uuid)).sort();
    };

    expect(await listUuids('account_active_payment_method=invoice')).toEqual([first.uuid, second.uuid].sort());
    expect(await listUuids('account_active_payment_method=invoice&account=s-2')).toEqual([second.uuid]);
    expect(await listUuids('account_active_payment_method=payment_card')).toEqual([]);
    expect(await listUuids('account_active_payment_method=direct_debit')).toEqual([]);
    const refused = await api.get(`${SUBSCRIPTIONS}?account_active_payment_method=cheque`);
    expectStatus(refused, 400);
    expect(refused.body).toEqual({
      account_active_payment_method: ['Select a valid choice. cheque is not one of the available choices.'],
    });
  });
});
