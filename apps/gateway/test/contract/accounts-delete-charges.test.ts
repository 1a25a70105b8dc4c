/**
 * The delete rule "refused while the account has invoices" (gaps.md §3) also holds while a charge
 * of an expired subscription is still on its way to invoicing: a subscription cancelled `today`
 * ends at once, but its last charge is invoiced asynchronously from its event. Until that invoice
 * exists the account must not go, or the invoice would find no account and the money would be lost
 * (docs/architecture.md "Invoices and account deletion").
 */
import { waitFor } from '@billing/testing';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import { accountPath, createAccount, createPlan, createPlanTerms, expectStatus, usePlatform } from './helpers.js';
import { INVOICES, type Invoice } from './invoices-helpers.js';
import { clockOrganization, createSubscription, subscriptionPath } from './subscriptions-helpers.js';

const platform = usePlatform();

const HAS_INVOICES = { detail: 'An account with invoices cannot be deleted.' };

/**
 * A connection of the test's own that locks invoicing's inbox table: the charge consumer's
 * transaction stops at its first statement (the inbox row), before it announces an invoice, so the
 * charge stays in flight until `release`.
 */
async function holdChargeConsumer() {
  const { databaseUrl, schema } = platform().invoicingDatabase;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`set search_path to "${schema}"`);
  await client.query('begin');
  await client.query('lock table inbox in exclusive mode');
  const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
  return {
    /** Resolves once a transaction (the charge consumer's) waits for the lock. */
    consumerWaiting: () =>
      waitFor(
        async () => {
          await client.query('select pg_stat_clear_snapshot()');
          const { rows } = await client.query(
            'select pid from pg_stat_activity where $1 = any(pg_blocking_pids(pid))',
            [pid],
          );
          return rows.length > 0 ? true : undefined;
        },
        { timeoutMs: 10_000, description: 'the charge consumer waiting for the inbox lock' },
      ),
    async release() {
      await client.query('commit').catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}

async function invoicesOf(api: ApiClient, code: string): Promise<Invoice[]> {
  const response = await api.get(`${INVOICES}?account=${code}`);
  expectStatus(response, 200);
  return response.body.results as Invoice[];
}

describe('DELETE /accounts/{code}/ while the last charge of an expired subscription is in flight', () => {
  it('is refused while the charge is on its way, and after it is invoiced', async () => {
    const org = await clockOrganization(platform(), '2026-01-01T09:00:00.000Z');
    const plan = await createPlan(org.api);
    // Backwards charging: nothing is invoiced at the start, so the account has no invoice yet.
    const terms = await createPlanTerms(org.api, plan.uuid, { backwards_charging: true, price: '310.00' });
    await createAccount(org.api, 'leaving');
    const subscription = await createSubscription(org.api, { code: 'leaving', terms });
    await org.advance('2026-01-11T09:00:00.000Z');
    expect(await invoicesOf(org.api, 'leaving')).toEqual([]);

    const hold = await holdChargeConsumer();
    try {
      // Cancelled today: it expires at once; its last charge (10 of 31 days) goes to invoicing.
      const cancelled = await org.api.post(`${subscriptionPath(subscription.uuid as string)}cancel/`, {
        cancellation_type: 'today',
      });
      expectStatus(cancelled, 200);
      expect(cancelled.body.status).toBe('expired');
      await hold.consumerWaiting();

      const whileInFlight = await org.api.delete(accountPath('leaving'));
      expect({ status: whileInFlight.status, body: whileInFlight.body }).toEqual({ status: 400, body: HAS_INVOICES });
    } finally {
      await hold.release();
    }

    const [invoice] = await waitFor(
      async () => {
        const invoices = await invoicesOf(org.api, 'leaving');
        return invoices.length > 0 ? invoices : undefined;
      },
      { timeoutMs: 10_000, description: 'the last charge invoiced' },
    );
    // 310.00 × 10/31 days = 100.00, + 25 % VAT; the list view's amounts are JSON numbers.
    const { account_code, date, total, status } = invoice!;
    expect({ account_code, date, total, status }).toEqual({
      account_code: 'leaving',
      date: '2026-01-11',
      total: 125,
      status: 'open',
    });
    const afterInvoicing = await org.api.delete(accountPath('leaving'));
    expect({ status: afterInvoicing.status, body: afterInvoicing.body }).toEqual({ status: 400, body: HAS_INVOICES });
    expectStatus(await org.api.get(accountPath('leaving')), 200);
  });
});

describe('POST /test-clock/advance/ waiting for a charge invoicing set aside', () => {
  it('answers 500 once the charge is set aside, instead of waiting out its deadline', { timeout: 60_000 }, async () => {
    const org = await clockOrganization(platform(), '2026-01-01T09:00:00.000Z');
    const plan = await createPlan(org.api);
    const terms = await createPlanTerms(org.api, plan.uuid, { backwards_charging: true, price: '310.00' });
    await createAccount(org.api, 'vanishing');
    const subscription = await createSubscription(org.api, { code: 'vanishing', terms });
    await org.advance('2026-01-11T09:00:00.000Z');

    const hold = await holdChargeConsumer();
    try {
      expectStatus(
        await org.api.post(`${subscriptionPath(subscription.uuid as string)}cancel/`, { cancellation_type: 'today' }),
        200,
      );
      await hold.consumerWaiting();
      // A fault no API call can cause any more: the account row vanishes behind the platform's back,
      // so invoicing cannot find the charge's buyer, retries, and sets the charge aside.
      await removeAccountRow(org.organizationId, 'vanishing');
    } finally {
      await hold.release();
    }

    const advanced = await org.api.post('/api/v1/test-clock/advance/', { to: '2026-01-12T09:00:00.000Z' });
    expect({ status: advanced.status, body: advanced.body }).toEqual({
      status: 500,
      body: { detail: 'Internal server error.', request_id: expect.any(String) },
    });
  });
});

async function removeAccountRow(organizationId: string, code: string): Promise<void> {
  const { databaseUrl, schema } = platform().accountsDatabase;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`set search_path to "${schema}"`);
    const { rowCount } = await client.query('delete from account where organization_id = $1 and code = $2', [
      organizationId,
      code,
    ]);
    expect(rowCount).toBe(1);
  } finally {
    await client.end();
  }
}
