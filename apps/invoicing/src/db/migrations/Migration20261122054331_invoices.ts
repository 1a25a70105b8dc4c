import { Migration } from '@mikro-orm/migrations';

export class Migration20261122054331_invoices extends Migration {
  override name = 'Migration20261122054331_invoices';

  override up(): void {
    this.addSql(
      `create table "credit_application" ("id" uuid not null, "organization_id" uuid not null, "credit_note_id" uuid not null, "target_invoice_id" uuid not null, "amount" numeric(20,6) not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "credit_application_organization_idx" on "credit_application" ("organization_id", "credit_note_id");`,
    );

    this.addSql(
      `create table "draft_invoice_line" ("id" uuid not null, "organization_id" uuid not null, "account_id" uuid not null, "description" text not null, "vat_type" varchar(16) not null, "collect_vat" boolean not null, "date_from" varchar(10) null, "date_to" varchar(10) null, "price" numeric(20,6) not null, "quantity" numeric(20,6) not null, "discount_percentage" numeric(20,6) null, "discount_fixed_per_quantity" numeric(20,6) null, "discount_fixed_total" numeric(20,6) null, "currency" varchar(3) not null, "include_in_next_renewal_invoice" boolean not null, "revenue_group" varchar(128) null, "reference_person" varchar(128) not null, "account_reference_person" varchar(128) not null, "po_number" varchar(128) not null, "case_number" varchar(128) not null, "invoice_supplement" text null, "custom_fields" jsonb not null, "invoiced_at" timestamptz null, "invoice_id" uuid null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "draft_invoice_line_organization_account_idx" on "draft_invoice_line" ("organization_id", "account_id", "created_at");`,
    );
    this.addSql(
      `create index "draft_invoice_line_organization_created_idx" on "draft_invoice_line" ("organization_id", "created_at");`,
    );

    this.addSql(
      `create table "invoice" ("id" uuid not null, "organization_id" uuid not null, "account_id" uuid not null, "account_code" varchar(128) not null, "invoice_number" bigint null, "external_invoice_number" varchar(128) not null, "date" varchar(10) not null, "due_date" varchar(10) not null, "currency" varchar(3) not null, "status" varchar(16) not null, "kickback_status" varchar(32) null, "collection_method" varchar(32) not null, "payment_terms" int not null, "subtotal" numeric(20,6) not null, "vat" numeric(20,6) not null, "total" numeric(20,6) not null, "balance" numeric(20,6) not null, "is_credit_note" boolean not null, "credit_note_for" uuid null, "reverse_charge" boolean not null, "vat_note" text not null, "vat_breakdown" jsonb not null, "seller" jsonb not null, "buyer" jsonb not null, "language" varchar(8) not null, "po_number" varchar(128) not null, "group_key" text null, "issue_after" timestamptz null, "paid_date" varchar(10) null, "imported" boolean not null, "import_source" varchar(32) not null, "issued_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "invoice_organization_date_idx" on "invoice" ("organization_id", "date");`);
    this.addSql(`create index "invoice_organization_account_idx" on "invoice" ("organization_id", "account_id");`);
    this.addSql(`create index "invoice_pending_idx" on "invoice" ("status", "issue_after");`);
    this.addSql(`create index "invoice_group_idx" on "invoice" ("organization_id", "group_key");`);
    this.addSql(
      `alter table "invoice" add constraint "invoice_organization_number_unique" unique ("organization_id", "invoice_number");`,
    );

    this.addSql(
      `create table "invoiced_charge" ("charge_id" uuid not null, "organization_id" uuid not null, "invoice_id" uuid not null, "created_at" timestamptz not null, primary key ("charge_id"));`,
    );

    this.addSql(
      `create table "invoice_line" ("id" bigserial primary key, "organization_id" uuid not null, "invoice_id" uuid not null, "account_id" uuid not null, "account_code" varchar(128) not null, "description" text not null, "sku" varchar(128) not null, "vat_type" varchar(16) not null, "collect_vat" boolean not null, "date_from" varchar(10) null, "date_to" varchar(10) null, "price" numeric(30,12) not null, "quantity" numeric(20,6) not null, "subtotal" numeric(20,6) not null, "vat_rate" numeric(7,4) not null, "vat" numeric(20,6) not null, "total" numeric(20,6) not null, "currency" varchar(3) not null, "refund_of" bigint null, "subscription_id" uuid null, "terms_id" uuid null, "product_id" uuid null, "charge_id" uuid null, "draft_invoice_line_id" uuid null, "sort_weight" int not null, "reference_person" varchar(128) not null, "account_reference_person" varchar(128) not null, "po_number" varchar(128) not null, "case_number" varchar(128) not null, "invoice_supplement" text null, "custom_fields" jsonb not null, "pricing" jsonb not null, "created_at" timestamptz not null);`,
    );
    this.addSql(`create index "invoice_line_invoice_idx" on "invoice_line" ("invoice_id");`);
    this.addSql(
      `create index "invoice_line_organization_subscription_idx" on "invoice_line" ("organization_id", "subscription_id");`,
    );

    this.addSql(
      `create table "invoice_number_counter" ("organization_id" uuid not null, "last_number" bigint not null, primary key ("organization_id"));`,
    );

    this.addSql(
      `create table "mail_job" ("id" uuid not null, "organization_id" uuid not null, "invoice_id" uuid not null, "recipients" jsonb not null, "attempts" int not null, "last_error" text null, "sent_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "mail_job_pending_idx" on "mail_job" ("sent_at", "created_at");`);
  }

  override down(): void {
    this.addSql(`drop table if exists "credit_application" cascade;`);
    this.addSql(`drop table if exists "draft_invoice_line" cascade;`);
    this.addSql(`drop table if exists "invoice" cascade;`);
    this.addSql(`drop table if exists "invoiced_charge" cascade;`);
    this.addSql(`drop table if exists "invoice_line" cascade;`);
    this.addSql(`drop table if exists "invoice_number_counter" cascade;`);
    this.addSql(`drop table if exists "mail_job" cascade;`);
  }
}
