import { Migration } from '@mikro-orm/migrations';

export class Migration20261125220746_activities_and_mrr extends Migration {
  override name = 'Migration20261125220746_activities_and_mrr';

  override up(): void {
    this.addSql(
      `create table "account" ("id" uuid not null, "organization_id" uuid not null, "code" varchar(128) not null, "company_name" varchar(256) not null, "legal_country" varchar(2) not null, "ean_invoicing" boolean not null, primary key ("id"));`,
    );
    this.addSql(`create index "account_organization_code_idx" on "account" ("organization_id", "code");`);

    this.addSql(
      `create table "account_activity" ("id" uuid not null, "seq" bigserial, "organization_id" uuid not null, "account_id" uuid not null, "source_id" uuid null, "subscription" varchar(64) null, "type" varchar(32) not null, "date" timestamptz not null, "created_date" timestamptz not null, "old_mrr" numeric(20,2) null, "new_mrr" numeric(20,2) null, "mrr_change" numeric(20,2) not null, "churn_reason" varchar(256) not null, "account_first_subscription_start_date" timestamptz null, "is_manual" boolean not null, "deleted" boolean not null, "dropped" boolean not null, "account_code" varchar(128) null, "company_name" varchar(256) null, primary key ("id"));`,
    );
    this.addSql(`alter table "account_activity" add constraint "account_activity_seq_unique" unique ("seq");`);
    this.addSql(
      `create index "account_activity_organization_date_idx" on "account_activity" ("organization_id", "date");`,
    );
    this.addSql(
      `create index "account_activity_organization_account_idx" on "account_activity" ("organization_id", "account_id");`,
    );
    this.addSql(`alter table "account_activity" add constraint "account_activity_source_unique" unique ("source_id");`);

    this.addSql(
      `create table "activity" ("id" uuid not null, "seq" bigserial, "organization_id" uuid not null, "account_id" uuid not null, "subscription_id" uuid null, "invoice_id" uuid null, "type" varchar(32) not null, "date" timestamptz not null, "created_date" timestamptz not null, "updated_date" timestamptz not null, "is_manual" boolean not null, "is_churn" boolean not null, "deleted" boolean not null, "dropped" boolean not null, "planned" boolean not null, "plan_key" varchar(64) null, "old_currency" varchar(3) null, "new_currency" varchar(3) null, "old_mrr_in_subscription_currency" numeric(40,20) null, "new_mrr_in_subscription_currency" numeric(40,20) null, "old_mrr" numeric(20,2) null, "new_mrr" numeric(20,2) null, "mrr_change" numeric(20,2) null, "old_quantity" int null, "new_quantity" int null, "old_terms" uuid null, "new_terms" uuid null, "old_plan" uuid null, "new_plan" uuid null, "churn_reason" uuid null, "custom_churn_reason" varchar(100) null, primary key ("id"));`,
    );
    this.addSql(`alter table "activity" add constraint "activity_seq_unique" unique ("seq");`);
    this.addSql(`create index "activity_organization_date_idx" on "activity" ("organization_id", "date");`);
    this.addSql(
      `create index "activity_organization_subscription_idx" on "activity" ("organization_id", "subscription_id");`,
    );
    this.addSql(
      `create index "activity_organization_account_idx" on "activity" ("organization_id", "account_id", "date");`,
    );
    this.addSql(
      `alter table "activity" add constraint "activity_subscription_plan_key_unique" unique ("subscription_id", "plan_key");`,
    );

    this.addSql(
      `create table "mrr_totals" ("organization_id" uuid not null, "total_mrr" numeric(24,2) not null, "future_mrr" numeric(24,2) not null, "pending_mrr" numeric(24,2) not null, "subscriptions_count" int not null, primary key ("organization_id"));`,
    );

    this.addSql(
      `create table "organization" ("id" uuid not null, "base_currency" varchar(3) not null, "time_zone" varchar(64) not null, "exchange_rates" jsonb not null, primary key ("id"));`,
    );

    this.addSql(
      `create table "plan" ("id" uuid not null, "organization_id" uuid not null, "name" varchar(256) not null, primary key ("id"));`,
    );

    this.addSql(
      `create table "plan_terms" ("id" uuid not null, "organization_id" uuid not null, "plan_id" uuid not null, "code" varchar(256) not null, "currency" varchar(3) not null, "interval_type" varchar(8) not null, "interval_count" int not null, "revenue_group" varchar(256) null, primary key ("id"));`,
    );

    this.addSql(
      `create table "subscription_mrr" ("id" uuid not null, "organization_id" uuid not null, "account_id" uuid not null, "plan_id" uuid not null, "terms_id" uuid not null, "status" varchar(32) not null, "collection_method" varchar(32) not null, "currency" varchar(3) not null, "quantity" int not null, "interval_type" varchar(8) not null, "interval_count" int not null, "has_custom_price" boolean not null, "payment_terms" int null, "start_date" timestamptz null, "original_start_date" timestamptz null, "next_renewal_date" timestamptz null, "end_date" timestamptz null, "last_modified_date" timestamptz not null, "mrr" numeric(40,20) not null, "rate" numeric(20,10) null, "total_mrr" numeric(20,2) not null, "future_mrr" numeric(20,2) not null, "pending_mrr" numeric(20,2) not null, "churn_reason" uuid null, "custom_churn_reason" varchar(100) null, "version" int not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "subscription_mrr_organization_status_idx" on "subscription_mrr" ("organization_id", "status");`,
    );
    this.addSql(
      `create index "subscription_mrr_organization_account_idx" on "subscription_mrr" ("organization_id", "account_id");`,
    );
    this.addSql(
      `create index "subscription_mrr_organization_plan_idx" on "subscription_mrr" ("organization_id", "plan_id");`,
    );
    this.addSql(
      `create index "subscription_mrr_organization_terms_idx" on "subscription_mrr" ("organization_id", "terms_id");`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "account" cascade;`);
    this.addSql(`drop table if exists "account_activity" cascade;`);
    this.addSql(`drop table if exists "activity" cascade;`);
    this.addSql(`drop table if exists "mrr_totals" cascade;`);
    this.addSql(`drop table if exists "organization" cascade;`);
    this.addSql(`drop table if exists "plan" cascade;`);
    this.addSql(`drop table if exists "plan_terms" cascade;`);
    this.addSql(`drop table if exists "subscription_mrr" cascade;`);
  }
}
