import { Migration } from '@mikro-orm/migrations';

export class Migration20261122050317_subscriptions extends Migration {
  override name = 'Migration20261122050317_subscriptions';

  override up(): void {
    this.addSql(
      `create table "charge" ("id" uuid not null, "organization_id" uuid not null, "subscription_id" uuid not null, "account_id" uuid not null, "kind" varchar(32) not null, "period_start" timestamptz not null, "change_key" varchar(64) not null, "due_at" timestamptz not null, "currency" varchar(3) not null, "amount" numeric(20,6) not null, "lines" jsonb not null, "credit_all_invoices" boolean not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "charge_organization_subscription_idx" on "charge" ("organization_id", "subscription_id");`,
    );
    this.addSql(
      `alter table "charge" add constraint "charge_once_idx" unique ("subscription_id", "kind", "period_start", "change_key");`,
    );

    this.addSql(
      `create table "subscription" ("id" uuid not null, "organization_id" uuid not null, "account_id" uuid not null, "plan_terms_id" uuid not null, "quantity" int not null, "override_price" numeric(20,6) null, "status" varchar(32) not null, "time_zone" varchar(64) not null, "on_test_clock" boolean not null, "start_date" timestamptz not null, "original_start_date" timestamptz not null, "base_renewal_date" timestamptz null, "period_n" int not null, "charged_through" timestamptz null, "last_renewal_date" timestamptz null, "next_renewal_date" timestamptz null, "end_date" timestamptz null, "cancellation_type" varchar(32) null, "cancel_at" timestamptz null, "scheduled_change" jsonb null, "since" timestamptz null, "pending_lines" jsonb not null, "contract" jsonb null, "due_at" timestamptz null, "collection_method" varchar(32) not null, "group_on_invoice" boolean not null, "is_auto_renew_enabled" boolean not null, "payment_terms" int null, "pre_renewal_days_offset" int not null, "pre_renewal_invoicing" boolean not null, "po_number" varchar(128) not null, "invoice_supplement" text null, "reference_person" varchar(128) not null, "account_reference_person" varchar(128) not null, "case_number" varchar(128) not null, "churn_reason_id" uuid null, "custom_churn_reason" varchar(100) null, "custom_fields" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "subscription_organization_created_idx" on "subscription" ("organization_id", "created_at");`,
    );
    this.addSql(
      `create index "subscription_organization_account_idx" on "subscription" ("organization_id", "account_id");`,
    );
    this.addSql(`create index "subscription_due_idx" on "subscription" ("on_test_clock", "due_at");`);
  }

  override down(): void {
    this.addSql(`drop table if exists "charge" cascade;`);
    this.addSql(`drop table if exists "subscription" cascade;`);
  }
}
