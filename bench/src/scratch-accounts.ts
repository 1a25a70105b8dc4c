import { randomUUID } from 'node:crypto';
import { quoteIdentifier, withClient } from './database.js';

export interface ScratchAccounts {
  schema: string;
  organizationId: string;
  drop(): Promise<void>;
}

/**
 * For --baseline-only: a throwaway schema with the accounts service's account, recipient and
 * payment_gateway_account tables (columns as in apps/accounts/src/db/entities), the columns of
 * its organization, churn_reason and read model tables the baseline reads, and `codes` accounts
 * inserted directly (with empty sets), so the load runner and the baseline server can be checked
 * without the platform.
 */
export async function createScratchAccounts(databaseUrl: string, codes: string[]): Promise<ScratchAccounts> {
  const schema = `bench_scratch_${randomUUID().slice(0, 8)}`;
  const q = quoteIdentifier(schema);
  const organizationId = randomUUID();
  await withClient(databaseUrl, async (client) => {
    await client.query(`create schema ${q}`);
    await client.query(`create table ${q}.account (
      id uuid primary key, organization_id uuid not null, code varchar(128) not null,
      company_name varchar(256), first_name varchar(128), middle_name varchar(128), last_name varchar(128),
      title varchar(8), gender varchar(8), erp_id varchar(128), partner bigint,
      ean_invoicing boolean not null default false, einvoicing_identifier_schema varchar(32) not null default '',
      ean_number varchar(128), einvoicing_intermediator varchar(35), invoice_note varchar(240),
      language varchar(2) not null default 'en', legal_address text not null, legal_zipcode varchar(128) not null,
      legal_city varchar(128) not null, legal_country varchar(2) not null,
      legal_vat_number varchar(128) not null default '', billing_same_as_legal boolean not null default true,
      billing_address text not null default '', billing_zipcode varchar(128) not null default '',
      billing_city varchar(128) not null default '', billing_country varchar(2) not null default '',
      update_from_registers boolean not null default false, default_payment_terms int,
      default_collection_method varchar(32), is_getting_reminders boolean not null default true,
      reseller uuid, reseller_billing_frequency varchar(32), reseller_billing_grouping varchar(64),
      type varchar(16), custom_fields jsonb not null default '{}', override_business_entity uuid,
      register_status varchar(32), industry varchar(256) not null default '',
      is_archived boolean not null default false,
      created_at timestamptz not null default now(), updated_at timestamptz not null default now(),
      constraint account_organization_code_unique unique (organization_id, code))`);
    await client.query(`create table ${q}.recipient (
      id uuid primary key, organization_id uuid not null, account_id uuid not null,
      name varchar(256) not null, email varchar(254) not null, receive_invoice boolean not null,
      receive_payment_confirmation boolean not null, receive_payment_card_notifications boolean not null,
      receive_subscription_notifications boolean not null, created_at timestamptz not null)`);
    await client.query(`create index on ${q}.recipient (organization_id, account_id)`);
    await client.query(`create table ${q}.payment_gateway_account (
      id uuid primary key, organization_id uuid not null, account_id uuid not null,
      payment_gateway varchar(32) not null, payment_gateway_account_id varchar(256) not null, position int not null)`);
    await client.query(`create index on ${q}.payment_gateway_account (organization_id, account_id)`);
    // Only the columns of the organization, its churn reasons and the read model the baseline reads;
    // the read model stays empty (the sets of --empty-accounts).
    await client.query(`create table ${q}.organization (
      id uuid primary key, default_payment_terms int not null, features jsonb not null default '[]')`);
    await client.query(`insert into ${q}.organization (id, default_payment_terms) values ($1, 14)`, [organizationId]);
    await client.query(`create table ${q}.churn_reason (
      id uuid primary key, organization_id uuid not null, name varchar(100) not null, is_active boolean not null)`);
    for (const table of ['account_subscription', 'account_draft_line', 'account_payment_card']) {
      await client.query(`create table ${q}.${table} (
        id uuid primary key, organization_id uuid not null, account_id uuid not null, created_date timestamptz,
        snapshot bytea, removed boolean not null default false)`);
      await client.query(`create index on ${q}.${table} (organization_id, account_id)`);
    }
    await client.query(
      `insert into ${q}.account (id, organization_id, code, company_name, legal_address, legal_zipcode, legal_city, legal_country)
       select gen_random_uuid(), $1, code, 'Bench ' || code || ' ApS', 'Benchmarkvej 1', '2100', 'København Ø', 'DK'
       from unnest($2::text[]) as code`,
      [organizationId, codes],
    );
    await client.query(`analyze ${q}.account`);
  });
  return {
    schema,
    organizationId,
    drop: () => withClient(databaseUrl, (client) => client.query(`drop schema ${q} cascade`)).then(() => undefined),
  };
}
