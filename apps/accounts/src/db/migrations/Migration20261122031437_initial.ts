import { Migration } from '@mikro-orm/migrations';

export class Migration20261122031437_initial extends Migration {
  override name = 'Migration20261122031437_initial';

  override up(): void {
    this.addSql(
      `create table "account" ("id" uuid not null, "organization_id" uuid not null, "code" varchar(128) not null, "company_name" varchar(256) null, "first_name" varchar(128) null, "middle_name" varchar(128) null, "last_name" varchar(128) null, "title" varchar(8) null, "gender" varchar(8) null, "erp_id" varchar(128) null, "partner" bigint null, "ean_invoicing" boolean not null, "einvoicing_identifier_schema" varchar(32) not null, "ean_number" varchar(128) null, "einvoicing_intermediator" varchar(35) null, "invoice_note" varchar(240) null, "language" varchar(2) not null, "legal_address" text not null, "legal_zipcode" varchar(128) not null, "legal_city" varchar(128) not null, "legal_country" varchar(2) not null, "legal_vat_number" varchar(128) not null, "billing_same_as_legal" boolean not null, "billing_address" text not null, "billing_zipcode" varchar(128) not null, "billing_city" varchar(128) not null, "billing_country" varchar(2) not null, "update_from_registers" boolean not null, "default_payment_terms" int null, "default_collection_method" varchar(32) null, "is_getting_reminders" boolean not null, "reseller" uuid null, "reseller_billing_frequency" varchar(32) null, "reseller_billing_grouping" varchar(64) null, "type" varchar(16) null, "custom_fields" jsonb not null, "override_business_entity" uuid null, "register_status" varchar(32) null, "industry" varchar(256) not null, "is_archived" boolean not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "account_organization_created_idx" on "account" ("organization_id", "created_at");`);
    this.addSql(
      `alter table "account" add constraint "account_organization_code_unique" unique ("organization_id", "code");`,
    );

    this.addSql(
      `create table "account_billing_summary" ("account_id" uuid not null, "organization_id" uuid not null, "non_expired_subscriptions" int not null, "invoices" int not null, "subscription_statuses" jsonb not null, "subscription_collection_methods" jsonb not null, "subscription_set_to_expire" boolean not null, "balance" numeric(20,6) not null, "active_payment_method" varchar(32) null, "registered_for_direct_debit" boolean not null, "updated_at" timestamptz not null, primary key ("account_id"));`,
    );

    this.addSql(
      `create table "api_user" ("id" uuid not null, "organization_id" uuid not null, "name" varchar(128) not null, "token_hash" varchar(64) not null, "token_prefix" varchar(8) not null, "permissions" jsonb not null, "created_at" timestamptz not null, "disabled_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "api_user_organization_id_index" on "api_user" ("organization_id");`);
    this.addSql(`alter table "api_user" add constraint "api_user_token_hash_unique" unique ("token_hash");`);

    this.addSql(
      `create table "audit_log" ("id" uuid not null, "organization_id" text not null, "api_user_id" text null, "client_system" text null, "external_user" text null, "request_id" text null, "action" text not null, "object_type" text not null, "object_id" text not null, "occurred_at" timestamptz not null, "details" jsonb null, primary key ("id"));`,
    );
    this.addSql(
      `create index "audit_log_organization_occurred_idx" on "audit_log" ("organization_id", "occurred_at");`,
    );

    this.addSql(
      `create table "inbox" ("consumer" text not null, "message_id" uuid not null, "processed_at" timestamptz not null, primary key ("consumer", "message_id"));`,
    );

    this.addSql(
      `create table "organization" ("id" uuid not null, "name" varchar(256) not null, "country" varchar(2) not null, "base_currency" varchar(3) not null, "time_zone" varchar(64) not null, "default_payment_terms" int not null, "default_collection_method" varchar(32) not null, "rate_limit_per_minute" int not null, "features" jsonb not null, "created_at" timestamptz not null, primary key ("id"));`,
    );

    this.addSql(
      `create table "outbox" ("id" uuid not null, "position" bigserial, "subject" text not null, "payload" bytea not null, "created_at" timestamptz not null, "published_at" timestamptz null, "attempts" int not null default 0, "last_error" text null, primary key ("id"));`,
    );
    this.addSql(`create index "outbox_unpublished_idx" on "outbox" ("position") where "published_at" is null;`);

    this.addSql(
      `create table "payment_gateway_account" ("id" uuid not null, "organization_id" uuid not null, "account_id" uuid not null, "payment_gateway" varchar(32) not null, "payment_gateway_account_id" varchar(256) not null, "position" int not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "pga_organization_account_idx" on "payment_gateway_account" ("organization_id", "account_id");`,
    );

    this.addSql(
      `create table "recipient" ("id" uuid not null, "organization_id" uuid not null, "account_id" uuid not null, "name" varchar(256) not null, "email" varchar(254) not null, "receive_invoice" boolean not null, "receive_payment_confirmation" boolean not null, "receive_payment_card_notifications" boolean not null, "receive_subscription_notifications" boolean not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "recipient_organization_account_idx" on "recipient" ("organization_id", "account_id");`);
  }

  override down(): void {
    this.addSql(`drop table if exists "account" cascade;`);
    this.addSql(`drop table if exists "account_billing_summary" cascade;`);
    this.addSql(`drop table if exists "api_user" cascade;`);
    this.addSql(`drop table if exists "audit_log" cascade;`);
    this.addSql(`drop table if exists "inbox" cascade;`);
    this.addSql(`drop table if exists "organization" cascade;`);
    this.addSql(`drop table if exists "outbox" cascade;`);
    this.addSql(`drop table if exists "payment_gateway_account" cascade;`);
    this.addSql(`drop table if exists "recipient" cascade;`);
  }
}
