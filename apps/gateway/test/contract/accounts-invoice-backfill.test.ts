/**
 * An installation upgraded from before invoices published their state to the accounts read model:
 * its invoices are in invoicing but not in accounts' account_invoice, so the `balance` filter and
 * the delete rule would not see them. The migration that adds invoicing's read-model backfill
 * queues every issued invoice, and invoicing publishes each once (docs/architecture.md "The
 * invoices of an account"). Here the read model is emptied, as it was before the upgrade, and the
 * migration is run again on the live platform.
 */
import { migrate, openOrm } from '@billing/db';
import { invoicingModule } from '@billing/invoicing';
import { waitFor } from '@billing/testing';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import { accountPath, createAccount, expectStatus, listCodes, newOrganization, usePlatform } from './helpers.js';
import { actionPath, DRAFT_LINES, generateInvoicePath, type Invoice } from './invoices-helpers.js';

const platform = usePlatform();

async function invoiceOf(api: ApiClient, code: string, price: string): Promise<Invoice> {
  expectStatus(
    await api.post(DRAFT_LINES, { account: code, description: 'Consulting', vat_type: 'services', price }),
    201,
  );
  const response = await api.post(generateInvoicePath(code), {});
  expectStatus(response, 200);
  return (response.body as Invoice[])[0]!;
}

/** The accounts read model as it was before the upgrade: no invoice of the organization in it. */
async function emptyInvoiceReadModel(organizationId: string): Promise<number> {
  const { databaseUrl, schema } = platform().accountsDatabase;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`set search_path to "${schema}"`);
    const { rowCount } = await client.query('delete from account_invoice where organization_id = $1', [organizationId]);
    return rowCount ?? 0;
  } finally {
    await client.end();
  }
}

const BACKFILL_MIGRATION = 'Migration20261125222456_invoice_read_model_backfill';

/** Undoes the backfill migration (and any later one) on the platform's invoicing schema and applies them again. */
async function rerunBackfillMigration(): Promise<string[]> {
  const { databaseUrl, schema } = platform().invoicingDatabase;
  const { entities, migrations } = invoicingModule;
  const names = migrations.map((migration) => migration.name);
  const orm = await openOrm({ clientUrl: databaseUrl, schema, entities, migrations: [...migrations] });
  try {
    await orm.migrator.down({ to: names[names.indexOf(BACKFILL_MIGRATION) - 1]! });
    return await migrate(orm);
  } finally {
    await orm.close();
  }
}

describe('invoices issued before the accounts read model existed', () => {
  it('reach the balance filter and the delete rule through the backfill migration', async () => {
    const { api, organizationId } = await newOrganization(platform());
    await createAccount(api, 'owes');
    await createAccount(api, 'settled');
    await createAccount(api, 'without-invoices');
    // 80 + 25 % VAT = 100.00, open; 40 + 25 % = 50.00, paid.
    await invoiceOf(api, 'owes', '80');
    const paid = await invoiceOf(api, 'settled', '40');
    expectStatus(await api.post(actionPath(paid.uuid, 'register-payment'), { registration_date: '2026-01-20' }), 200);
    expect(await listCodes(api, 'balance=100')).toEqual(['owes']);

    expect(await emptyInvoiceReadModel(organizationId)).toBe(2);
    // What an upgraded installation showed: the open invoice counted nowhere.
    expect(await listCodes(api, 'balance=100')).toEqual([]);
    expect(await listCodes(api, 'balance=0&ordering=code')).toEqual(['owes', 'settled', 'without-invoices']);

    const applied = await rerunBackfillMigration();
    expect(applied).toContain(BACKFILL_MIGRATION);

    await waitFor(async () => ((await listCodes(api, 'balance=100')).length > 0 ? true : undefined), {
      timeoutMs: 10_000,
      description: 'the backfilled invoices in the accounts read model',
    });
    expect(await listCodes(api, 'balance=100')).toEqual(['owes']);
    expect(await listCodes(api, 'balance=0&ordering=code')).toEqual(['settled', 'without-invoices']);
    const refused = { status: 400, body: { detail: 'An account with invoices cannot be deleted.' } };
    for (const code of ['owes', 'settled']) {
      const response = await api.delete(accountPath(code));
      expect({ code, status: response.status, body: response.body }).toEqual({ code, ...refused });
    }
    expectStatus(await api.delete(accountPath('without-invoices')), 204);
  });
});
