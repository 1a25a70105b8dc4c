import { Migration } from '@mikro-orm/migrations';

export class Migration20261125184408_invoice_read_model_and_payment_means extends Migration {
  override name = 'Migration20261125184408_invoice_read_model_and_payment_means';

  override up(): void {
    this.addSql(
      `create table "account_invoice" ("id" uuid not null, "organization_id" uuid not null, "account_id" uuid not null, "status" varchar(16) not null, "currency" varchar(3) null, "balance" numeric(20,6) not null, "version" int not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "account_invoice_organization_account_idx" on "account_invoice" ("organization_id", "account_id");`,
    );
    this.addSql(
      `create index "account_invoice_organization_status_idx" on "account_invoice" ("organization_id", "status");`,
    );

    this.addSql(
      `create table "account_payment_means" ("account_id" uuid not null, "organization_id" uuid not null, "has_active_payment_card" boolean not null, "registered_for_direct_debit" boolean not null, "updated_at" timestamptz not null, primary key ("account_id"));`,
    );
    this.addSql(
      `create index "account_payment_means_organization_idx" on "account_payment_means" ("organization_id");`,
    );

    this.addSql(`drop table if exists "account_billing_summary" cascade;`);
  }

  override down(): void {
    this.addSql(
      `create table "account_billing_summary" ("account_id" uuid not null, "active_payment_method" varchar(32) null, "balance" numeric(20,6) not null, "invoices" int not null, "organization_id" uuid not null, "registered_for_direct_debit" boolean not null, "updated_at" timestamptz(6) not null, primary key ("account_id"));`,
    );

    this.addSql(`drop table if exists "account_invoice" cascade;`);
    this.addSql(`drop table if exists "account_payment_means" cascade;`);
  }
}
